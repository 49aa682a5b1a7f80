// Operations whose resource group has not been built yet answer 501 api_error `not_implemented`.
// They are listed by name: an operation that is neither implemented nor listed here fails `tsc`
// (src/features/handlers.ts), and a listed one that gets implemented must leave this list (a test checks).
import { ApiError } from '../http/errors';
import type { Handler, Handlers, OperationId } from '../http/types';

export const PENDING = [
  // Empty: every operation of the contract is implemented. A resource group added to openapi.yaml
  // before its code is listed here by operationId until it is built.
] as const satisfies readonly OperationId[];

export type PendingId = (typeof PENDING)[number];

export function pendingHandlers(): Pick<Handlers, PendingId> {
  const notYet = (id: PendingId): Handler<OperationId> => async () => {
    throw new ApiError('not_implemented', `${id} is not available yet`);
  };
  return Object.fromEntries(PENDING.map((id) => [id, notYet(id)])) as unknown as Pick<Handlers, PendingId>;
}
