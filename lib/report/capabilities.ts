/**
 * What a target can hold. The loss report is computed from the session and the target's capability set only,
 * so giving one writer a new capability cannot change what another writer discloses.
 */
import type { HarnessName } from "../ir/schema.ts";

export interface Capabilities {
  harness: HarnessName;
  /** Parent links, so rewound branches and sidechains can live beside the live thread. */
  threadTopology: boolean;
  /** Whose reasoning proofs (signatures, encrypted payloads) the target's provider accepts back. */
  reasoningProvider: "anthropic" | "openai" | "none";
  toolSchemas: boolean;
  systemInstructions: boolean;
  queuedInput: boolean;
  permissionPosture: boolean;
  perTurnModel: boolean;
  images: boolean;
  subagents: boolean;
}
