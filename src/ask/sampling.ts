/**
 * The bridge from ask to the MCP client's own model: when the connected client declared the
 * `sampling` capability, a `sample` hook that sends sampling/createMessage through the server.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { SampleRequest } from "../query/session.ts";

/** The hook for CallOptions.sample, or undefined when the client cannot sample. */
export function samplerFor(
  server: McpServer,
): ((req: SampleRequest) => Promise<string>) | undefined {
  if (!server.server.getClientCapabilities()?.sampling) return undefined;
  return async (req) => {
    const result = await server.server.createMessage({
      systemPrompt: req.system,
      messages: req.messages.map((m) => ({
        role: m.role,
        content: { type: "text" as const, text: m.text },
      })),
      maxTokens: req.maxTokens,
      includeContext: "none",
    }, { timeout: req.timeoutMs });
    const content = result.content as unknown;
    const parts = Array.isArray(content) ? content : [content];
    const text = parts
      .filter((p): p is { type: "text"; text: string } =>
        typeof p === "object" && p !== null && (p as { type?: string }).type === "text"
      )
      .map((p) => p.text)
      .join("\n");
    if (!text.trim()) throw new Error("the client's model answered with no text");
    return text;
  };
}
