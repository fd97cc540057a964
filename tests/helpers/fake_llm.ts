/**
 * A local stand-in for an OpenAI-compatible model server (POST /v1/chat/completions on
 * 127.0.0.1, a free port): it records every request and answers with what the test's script says.
 * `ask` talks to it through the real provider library, exactly as it would to a real endpoint.
 */

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  [key: string]: unknown;
}

/** What to answer to the i-th request (0-based). */
export type Script = (req: ChatRequest, i: number) => string | Promise<string>;

export interface FakeLlm {
  /** Base URL for LLM_BASE_URL: `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: ChatRequest[];
  /** A reply that never comes (until close): a hung model server. */
  hang(): Promise<string>;
  close(): Promise<void>;
}

/** Whether a request is ask's first kind (write Cypher) rather than its second (answer). */
export function wantsCypher(req: ChatRequest): boolean {
  return req.messages.some((m) => m.role === "system" && m.content.includes("openCypher"));
}

/** The whole conversation of a request as one text (for assertions). */
export function textOf(req: ChatRequest): string {
  return req.messages.map((m) => `${m.role}: ${m.content}`).join("\n");
}

export function fakeLlm(script: Script): FakeLlm {
  const requests: ChatRequest[] = [];
  const hung: (() => void)[] = [];
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
        return new Response("not found", { status: 404 });
      }
      const body = await req.json() as ChatRequest;
      // Content may come as a string or as parts: keep the text.
      body.messages = body.messages.map((m) => ({
        role: m.role,
        content: typeof m.content === "string"
          ? m.content
          : (m.content as { text?: string }[]).map((p) => p.text ?? "").join(""),
      }));
      const i = requests.length;
      requests.push(body);
      const content = await script(body, i);
      return Response.json({
        id: `fake-${i}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    hang: () => new Promise<string>((resolve) => hung.push(() => resolve(""))),
    async close() {
      for (const release of hung) release();
      ac.abort();
      await server.finished.catch(() => {});
    },
  };
}

/** A reply carrying one Cypher query the way models usually write it. */
export function cypherReply(cypher: string): string {
  return `Here is the query:\n\`\`\`cypher\n${cypher}\n\`\`\``;
}
