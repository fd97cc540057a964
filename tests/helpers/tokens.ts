/**
 * Token counts with a real tokenizer: OpenAI's o200k_base BPE (GPT-4o and later), from the exactly
 * pinned npm package js-tiktoken with its ranks bundled (no download at run time). Used by the
 * token-budget test and the MCP benchmark, so both measure the same way.
 */
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

export const TOKENIZER = "o200k_base (js-tiktoken 1.0.21)";

let encoder: Tiktoken | undefined;

/** Tokens of `text` (special-token strings count as ordinary text). */
export function tokens(text: string): number {
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text, [], []).length;
}

/** How much smaller `text` is than `json`, in percent of the JSON's tokens. */
export function savingPercent(text: string, json: string): number {
  const j = tokens(json);
  return j === 0 ? 0 : (100 * (j - tokens(text))) / j;
}
