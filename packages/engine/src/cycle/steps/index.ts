/** The hourly cycle's steps, one file each, in the order they run (`STEP_ORDER`). */
export { closesStep } from "./closes";
export { measureStep } from "./measure";
export { anchorStep } from "./anchor";
export { settleStep, type SettlePass } from "./settle";
export { scoreStep } from "./score";
export { riskStep } from "./risk";
export { refereeStep } from "./referee";
export { stewardshipStep } from "./stewardship";
export { modesStep } from "./modes";
export { CYCLE_SECONDS, STEP_ORDER, type CycleContext, type CycleStep, type StepName } from "./step";
