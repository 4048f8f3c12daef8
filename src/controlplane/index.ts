/**
 * Public API of the Indexing API control plane (datasources, subs, users,
 * groups, memberships, group resolution). Route modules and the documents
 * pipeline import from here.
 */
export { indexingPart } from './state.ts';
export type {
  DatasourceState,
  DatasourceRecord,
  IndexingEvent,
  IndexingState,
  ObjectDefinition,
  PropertyDefinition,
  PropertyType,
  SubRecord,
  UserRecord,
} from './state.ts';
export { onIndexingEvent, type IndexingListener } from './events.ts';
export {
  addSub,
  createDatasource,
  deleteDatasource,
  deleteSub,
  getDatasource,
  indexingState,
  listDatasources,
  requireDatasource,
  updateDatasource,
  type IndexingDeps,
  type DeletedDatasource,
} from './datasources.ts';
export {
  createGroup,
  createUser,
  deleteGroup,
  deleteUser,
  listGroups,
  listUsers,
  renameGroup,
  updateUser,
} from './principals.ts';
export { createMembership, deleteMembership, type MembershipView } from './memberships.ts';
export { cyclePath, groupsOf, isRegistered, membershipPath, resolveGroups } from './resolve.ts';
export { compoundSubValue, deriveKey, isSlug, normalizeEmail, SLUG_PATTERN } from './names.ts';
export { datasourceView, type DatasourceView } from './views.ts';
export {
  checkCustomProperties,
  matchesPropertyType,
  propertyDefinitions,
  resolveSubReference,
  type SubBinding,
} from './document-rules.ts';
