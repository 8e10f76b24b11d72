/**
 * A file written whole or not at all: the bytes go to a temporary file beside it, which then
 * replaces it in one rename. A reader (a `serve` starting from a saved model, another process
 * sharing the model cache) never sees half a file, and a failed or interrupted write leaves the
 * previous file as it was.
 */
import { rename, rm, writeFile } from "node:fs/promises";

export async function writeFileAtomically(
  file: string,
  data: string | Uint8Array | readonly Uint8Array[],
): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    // A list of buffers is written one after another (a model file: no copy of it whole).
    await writeFile(temporary, Array.isArray(data) ? data.values() : (data as string | Uint8Array));
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    // Said of the file asked for, not of the temporary one beside it.
    if (error instanceof Error && (error as NodeJS.ErrnoException).path === temporary)
      (error as NodeJS.ErrnoException).path = file;
    throw error;
  }
}
