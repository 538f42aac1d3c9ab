/** Hermes in the demo's sandbox: an empty state.db, its config.yaml routing to the model the sample ran on. */
import type { DemoSeat } from "../types.ts";
import { createHermesStore } from "./first-run.ts";

export const seat: DemoSeat = { firstRun: (home, model) => void createHermesStore(home, model) };
