/**
 * Whether an operation's successful answers, none of which declares content, have no body: the
 * statuses that never carry one (204, 205), a HEAD, a DELETE (GitHub's `200 Response` beside a
 * 204), or answers whose description says so. Otherwise a 2xx without declared content is an
 * answer the spec left undocumented (Trello's GETs: `200 Success`, and they return data), of
 * which nothing is said. The tool text (compile/describe.ts) and code mode's result type
 * (runtime/code/signatures.ts) read it the same way.
 */
export function isEmptyAnswer(method: string, success: { status: string; description: string }[]): boolean {
  if (method === "head" || method === "delete") return true;
  return success.every(
    (answer) =>
      answer.status === "204" || answer.status === "205" || /\bno (content|body)\b/i.test(answer.description),
  );
}
