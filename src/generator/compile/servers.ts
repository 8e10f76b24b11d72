/** Servers: the URL templates with their variables, relative ones resolved against the spec's URL. */
import { isRecord } from "../../model/records.js";
import type { ServerNode } from "../../model/types.js";

export function planServers(raw: unknown, source: string): ServerNode[] {
  const servers: ServerNode[] = [];
  if (Array.isArray(raw)) {
    for (const server of raw) {
      if (!isRecord(server) || typeof server.url !== "string") continue;
      const node: ServerNode = { url: resolveServerUrl(server.url, source), variables: {} };
      if (typeof server.description === "string") node.description = server.description;
      if (isRecord(server.variables)) {
        for (const [name, variable] of Object.entries(server.variables)) {
          if (!isRecord(variable)) continue;
          const v: ServerNode["variables"][string] = { default: String(variable.default ?? "") };
          if (Array.isArray(variable.enum)) v.enum = variable.enum.map(String);
          if (typeof variable.description === "string") v.description = variable.description;
          node.variables[name] = v;
        }
      }
      servers.push(node);
    }
  }
  if (servers.length === 0) servers.push({ url: resolveServerUrl("/", source), variables: {} });
  return servers;
}

/** A relative server URL is relative to where the spec was fetched from (OAS 3 §4.8.5). */
function resolveServerUrl(url: string, source: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("{")) return url;
  if (/^https?:\/\//i.test(source)) {
    try {
      return new URL(url, source).href.replace(/\/$/, "");
    } catch {
      return url;
    }
  }
  return url;
}
