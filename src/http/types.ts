import type { Request } from 'express';
import type { Logger } from 'pino';
import type { operations } from '../../generated/schema';
import type { Deps } from '../deps';
import type { Role } from './spec';

/** Who is calling: resolved from the bearer credential, bound to one location. */
export interface Auth {
  credentialId: string;
  credentialType: 'api_key' | 'oauth_token';
  locationId: string;
  locationIsTest: boolean;
  role: Role;
  /** Granted scopes; empty means every scope (keys created without scopes). */
  scopes: string[];
  userId: string | null;
  /** OAuth access tokens: the resource the token was minted for (`mcp` tokens also work on /v1). */
  audience?: 'mcp' | 'api';
}

/** The caller's scope: the first argument of every service and repository function. */
export type Scope = Pick<Auth, 'locationId' | 'role' | 'userId' | 'scopes'> & { locationIsTest?: boolean };

/** Who acts when no person does (an email records an answer, a job runs): the location itself, unrestricted. */
export const systemScope = (locationId: string): Scope => ({ locationId, role: 'admin', userId: null, scopes: [] });

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      log: Logger;
      auth?: Auth;
      /** The credential's rate-limit count, taken with authentication. */
      rateLimit?: import('./rate-limit').Verdict;
    }
  }
}

/** Operations served over HTTP (webhook operations `on*` describe what we send, not what we serve). */
export type OperationId = Exclude<keyof operations, `on${string}`>;

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Params<K extends OperationId> = operations[K]['parameters'];

export type PathParams<K extends OperationId> = Params<K> extends { path: infer P } ? P : Record<string, never>;
export type QueryParams<K extends OperationId> = Params<K> extends { query?: infer Q } ? (Q extends undefined ? Record<string, never> : NonNullable<Q>) : Record<string, never>;
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody: infer RB }
  ? Json<NonNullable<RB>>
  : operations[K] extends { requestBody?: infer RB }
    ? Json<NonNullable<RB>> | undefined
    : undefined;

type SuccessStatus = 200 | 201 | 202;
/** The successful replies an operation may give, each with its status and body type. */
export type Reply<K extends OperationId> = {
  [S in keyof operations[K]['responses'] & SuccessStatus]: [Json<operations[K]['responses'][S]>] extends [never]
    ? // Not JSON (the location export's NDJSON): the handler answers a stream, written as it is read.
      import('./stream').StreamedReply
    : { status: S; body: Json<operations[K]['responses'][S]> };
}[keyof operations[K]['responses'] & SuccessStatus];

export interface HandlerContext<K extends OperationId> {
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  auth: Auth;
  scope: Scope;
  deps: Deps;
  req: Request;
}

export type Handler<K extends OperationId> = (ctx: HandlerContext<K>) => Promise<Reply<K>>;

/** One handler per operationId: a missing one, or a reply of the wrong shape, fails `tsc`. */
export type Handlers = { [K in OperationId]: Handler<K> };
