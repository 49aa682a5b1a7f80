// Operations whose resource group has not been built yet answer 501 api_error `not_implemented`.
// The type names exactly which ones: Handlers minus the implemented keys.
import { ApiError } from '../http/errors';
import { listOperations } from '../http/spec';
import type { Handlers } from '../http/types';

export function pendingHandlers<Done extends keyof Handlers>(): Omit<Handlers, Done> {
  return Object.fromEntries(
    listOperations().map((op) => [
      op.operationId,
      async () => {
        throw new ApiError(501, 'api_error', `${op.operationId} is not available yet`, 'not_implemented');
      },
    ]),
  ) as unknown as Omit<Handlers, Done>;
}
