/** A spec of `count` plain GET operations (`getThing0`...), for limits counted in tools. */
export function specOfGets(count: number, title: string, serverUrl: string): Record<string, unknown> {
  const paths = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `/thing${i}`,
      { get: { operationId: `getThing${i}`, responses: { "200": { description: "ok" } } } },
    ]),
  );
  return { openapi: "3.1.0", info: { title, version: "1" }, servers: [{ url: serverUrl }], paths };
}
