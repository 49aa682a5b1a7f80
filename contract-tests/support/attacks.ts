// The attack catalogue of contract-tests/api/attack.test.ts: everything here is derived from
// openapi.yaml (schemas, parameters, examples, x- bounds), nothing from a hand list of operations.
//
// An Attack is one concrete HTTP request that differs from a valid baseline request in ONE place
// (one body field, one query parameter, one path parameter, one header) or, for the few
// whole-request attacks, in its framing (encoding, media type, top-level JSON type). `expect`
// says what the server owes us: `reject` = a 4xx error envelope (the value is invalid, by the
// contract or by the server-wide rules: no NUL, no lone surrogate, finite numbers, bounded
// free-form objects); `survive` = anything but a 5xx (a hostile value the contract allows).
//
// The entry attack.test.ts imports; the catalogue itself is in ./attacks/: json.ts (body bytes),
// spec.ts (reading the contract), model.ts (Req, Attack, Baseline), body.ts and params.ts (what one
// field or parameter can be), catalogue.ts (every attack on an operation), random.ts (fast-check),
// verdicts.ts (judge).
export { RawJson, RawBytes, jsonBytes, describeBody } from './attacks/json';
export { type Schema, type Spec, resolveRef, type ParamInfo, type OperationDetail, operationDetail, typesOf, isFreeForm, getIn, clone, validValue } from './attacks/spec';
export { type Req, type Attack, type Baseline, renderPath, baseReq, type AttackContext, IMPOSSIBLE_DATES, IMPOSSIBLE_DATE_TIMES } from './attacks/model';
export { fieldMutations, bodyFields } from './attacks/body';
export { catalogue } from './attacks/catalogue';
export { pct } from './attacks/params';
export { hostileString, impossibleDate, impossibleDateTime, randomAttacks, hash32 } from './attacks/random';
export { type Res, judge, describeReq } from './attacks/verdicts';
