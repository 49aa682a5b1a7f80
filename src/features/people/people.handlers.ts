import type { Handler } from '../../http/types';
import * as service from './people.service';

export const createPerson: Handler<'createPerson'> = async ({ deps, scope, body }) => ({
  status: 201,
  body: { data: await service.createPerson(deps, scope, body), meta: {} },
});

export const listPeople: Handler<'listPeople'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listPeople(deps, scope, query),
});

export const getPerson: Handler<'getPerson'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getPerson(deps, scope, params.id), meta: {} },
});

export const updatePerson: Handler<'updatePerson'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updatePerson(deps, scope, params.id, body), meta: {} },
});

export const createPersonAssociation: Handler<'createPersonAssociation'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.createPersonAssociation(deps, scope, params.id, body), meta: {} },
});

export const listPersonAssociations: Handler<'listPersonAssociations'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listPersonAssociations(deps, scope, params.id, query),
});
