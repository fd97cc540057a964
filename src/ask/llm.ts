/**
 * Where ask's model comes from:
 *   1. the server's environment: MODEL_NAME=`provider/model` (openai, anthropic, gemini, ollama,
 *      openrouter), LLM_API_KEY (or the provider's own variable), LLM_BASE_URL for any
 *      OpenAI-compatible endpoint; through the Vercel AI SDK;
 *   2. else the MCP client's own model through sampling/createMessage, when it declared sampling;
 *   3. else nothing: ask answers with an error saying how to enable it.
 * Every call has a deadline (CGRAPH_LLM_TIMEOUT_MS, default 60 s).
 */
// The provider libraries load when a model is first asked (they take a quarter of a second to
// load, which every other command would pay).
import type { LanguageModel } from "ai";
import { deadline } from "../db/client.ts";
import { CgraphError } from "../errors.ts";
import type { SampleRequest } from "../query/session.ts";

// The SDK's warnings (unsupported settings) would otherwise go to the console.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export interface ChatMessage {
  role: "user" | "assistant";
  text: string;
}

export interface LlmRequest {
  system: string;
  messages: ChatMessage[];
  maxTokens: number;
}

export interface Llm {
  /** For answers and errors: `openai/gpt-4o-mini`, `the MCP client's model (sampling)`. */
  name: string;
  complete(req: LlmRequest): Promise<string>;
}

export function llmTimeoutMs(): number {
  const n = Number(Deno.env.get("CGRAPH_LLM_TIMEOUT_MS"));
  return Number.isFinite(n) && n > 0 ? Math.trunc(n) : 60_000;
}

const PROVIDERS = ["openai", "anthropic", "gemini", "google", "ollama", "openrouter"];

/** Each provider's own key variable, used when LLM_API_KEY is not set. */
const KEY_VARS: Record<string, string[]> = {
  openai: ["OPENAI_API_KEY"],
  anthropic: ["ANTHROPIC_API_KEY"],
  gemini: ["GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"],
  google: ["GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  ollama: [],
};

export interface ServerModel {
  llm?: Llm;
  /** Why MODEL_NAME is set but unusable (a missing key, an unknown provider). */
  problem?: string;
}

/** The model configured in the environment, if any. */
export function serverModel(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): ServerModel {
  const full = (env.MODEL_NAME ?? "").trim();
  if (!full) return {};
  const baseURL = (env.LLM_BASE_URL ?? "").trim() || undefined;
  const slash = full.indexOf("/");
  let provider = slash > 0 ? full.slice(0, slash).toLowerCase() : "";
  let model = slash > 0 ? full.slice(slash + 1) : full;
  if (!PROVIDERS.includes(provider)) {
    if (!baseURL) {
      return {
        problem: `MODEL_NAME '${full}' names no known provider (${PROVIDERS.join(", ")}); ` +
          "write provider/model, or set LLM_BASE_URL for an OpenAI-compatible endpoint.",
      };
    }
    provider = "compatible";
    model = full;
  }
  const key = (env.LLM_API_KEY ?? "").trim() ||
    (KEY_VARS[provider] ?? []).map((v) => (env[v] ?? "").trim()).find(Boolean);
  const needsKey = !baseURL && provider !== "ollama";
  if (needsKey && !key) {
    const vars = ["LLM_API_KEY", ...(KEY_VARS[provider] ?? [])].join(" or ");
    return { problem: `MODEL_NAME=${full} needs an API key: set ${vars}.` };
  }
  const make = async (): Promise<LanguageModel> => {
    switch (provider) {
      case "openai": {
        // Chat completions: what every OpenAI-compatible endpoint speaks too.
        const { createOpenAI } = await import("@ai-sdk/openai");
        return createOpenAI({ apiKey: key || "unused", baseURL }).chat(model);
      }
      case "anthropic": {
        const { createAnthropic } = await import("@ai-sdk/anthropic");
        return createAnthropic({ apiKey: key, baseURL })(model);
      }
      case "gemini":
      case "google": {
        const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
        return createGoogleGenerativeAI({ apiKey: key, baseURL })(model);
      }
    }
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    const defaults: Record<string, string> = {
      ollama: "http://localhost:11434/v1",
      openrouter: "https://openrouter.ai/api/v1",
    };
    return createOpenAICompatible({
      name: provider in defaults ? provider : "llm",
      apiKey: key || undefined,
      baseURL: baseURL ?? defaults[provider],
    })(model);
  };
  return { llm: sdkLlm(full, make, baseURL) };
}

function sdkLlm(
  name: string,
  make: () => Promise<LanguageModel>,
  baseURL: string | undefined,
): Llm {
  const where = baseURL ? ` at ${baseURL}` : "";
  let made: Promise<LanguageModel> | undefined;
  return {
    name,
    async complete(req) {
      const ms = llmTimeoutMs();
      try {
        const model = await (made ??= make());
        const { generateText } = await import("ai");
        const r = await generateText({
          model,
          system: req.system,
          messages: req.messages.map((m) => ({ role: m.role, content: m.text })),
          maxOutputTokens: req.maxTokens,
          maxRetries: 1,
          abortSignal: AbortSignal.timeout(ms),
        });
        return r.text;
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        const timedOut = err instanceof Error &&
          (err.name === "TimeoutError" || /timed? ?out|aborted/i.test(msg));
        throw new CgraphError(
          timedOut
            ? `The model ${name}${where} did not answer within ${ms} ms.`
            : `The model ${name}${where} failed: ${msg.slice(0, 500)}`,
          "Check MODEL_NAME, LLM_API_KEY and LLM_BASE_URL (CGRAPH_LLM_TIMEOUT_MS for slow " +
            "local models), or use get_schema + query_graph without a model.",
        );
      }
    },
  };
}

/** The MCP client's model, through sampling/createMessage (the client may ask its user first). */
export function samplingLlm(sample: (req: SampleRequest) => Promise<string>): Llm {
  const name = "the MCP client's model (sampling)";
  return {
    name,
    async complete(req) {
      const ms = llmTimeoutMs();
      try {
        return await deadline(
          sample({ ...req, timeoutMs: ms }),
          ms + 1000,
          () => new Error(`no answer within ${ms} ms`),
        );
      } catch (err) {
        throw new CgraphError(
          `Sampling through the MCP client failed: ${err instanceof Error ? err.message : err}`,
          "Approve the sampling request in the client, or configure a model on the server " +
            "(MODEL_NAME, LLM_API_KEY), or use get_schema + query_graph.",
        );
      }
    },
  };
}

/** Why ask cannot run, and how to enable it. */
export function noModelError(problem?: string): CgraphError {
  return new CgraphError(
    `ask needs a language model and has none${problem ? `: ${problem}` : "."}`,
    "Enable it in the server's environment (the MCP config's env): MODEL_NAME=provider/model " +
      "(openai/..., anthropic/..., gemini/..., openrouter/...) with LLM_API_KEY; or a local " +
      "model: MODEL_NAME=ollama/<model> (LLM_BASE_URL defaults to http://localhost:11434/v1); " +
      "or any OpenAI-compatible endpoint with LLM_BASE_URL; or use an MCP client that supports " +
      "sampling. Without a model: call get_schema, write Cypher yourself and run it with " +
      "query_graph (CLI: cgraph schema, cgraph cypher).",
  );
}
