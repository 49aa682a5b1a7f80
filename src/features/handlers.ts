import type { Handlers } from '../http/types';
import * as activity from './activity/activity.handlers';
import * as advances from './advances/advances.handlers';
import * as businesses from './businesses/businesses.handlers';
import * as deals from './deals/deals.handlers';
import * as documents from './documents/documents.handlers';
import * as events from './events/events.handlers';
import * as exportsHandlers from './exports/exports.handlers';
import * as inbound from './inbound/inbound.handlers';
import * as lenderMatches from './lender-matches/lender-matches.handlers';
import * as lenders from './lenders/lenders.handlers';
import * as notes from './notes/notes.handlers';
import * as notifications from './notifications/notifications.handlers';
import * as offers from './offers/offers.handlers';
import * as people from './people/people.handlers';
import * as pipeline from './pipeline/pipeline.handlers';
import * as portal from './portal/portal.handlers';
import * as submissions from './submissions/submissions.handlers';
import * as tasks from './tasks/tasks.handlers';
import * as webhooks from './webhooks/webhooks.handlers';
import { pendingHandlers } from './pending';

export const implemented = {
  ...activity, ...advances, ...businesses, ...deals, ...lenderMatches, ...lenders, ...notes, ...offers, ...people, ...pipeline, ...tasks,
  ...webhooks, ...events, ...submissions, ...inbound, ...documents, ...portal, ...notifications, ...exportsHandlers,
};

/**
 * Every operation of openapi.yaml, by operationId: implemented, or listed by name in pending.ts.
 * `tsc` fails when one is missing or its reply does not match the contract.
 */
export const handlers: Handlers = {
  ...pendingHandlers(),
  ...implemented,
};
