// The model a branch's context names (pi's buildSessionContext `model`).

export interface ContextModel {
  provider: string;
  modelId: string;
}
