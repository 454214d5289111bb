import { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { packageWebUsage } from './assumed';
import { packageTypeLimits } from './model';
import {
  changeNames,
  changePackageType,
  createPackage,
  deletePackage,
  packageDetail,
  packageListEntry,
  packageTypeEntry,
  requirePackage,
} from './backend';
import {
  expectArray,
  expectBody,
  expectBoolean,
  expectDomain,
  expectDomainList,
  expectId,
  expectObject,
  expectString,
  expectUserRef,
  parseId,
} from '../../validate';

/** Hosting packages (spec 4.2, 4.3; api-notes "Packages") and package types. */
export function addPackageRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/reseller/:reseller/packageTypes', (ctx) => bare(ctx.account.packageTypes.map(packageTypeEntry)));
  router.add('POST', '/reseller/:reseller/addWeb', addWeb);
  router.add('GET', '/package', (ctx) => bare(ctx.account.packages.map((p) => packageListEntry(ctx.account, p, ctx.profile))));
  router.add('GET', '/package/:pkg', (ctx) => bare(packageDetail(ctx.account, requirePackage(ctx.account, ctx.params.pkg), ctx.profile)));
  router.add('GET', '/package/:pkg/web/limits', (ctx) => bare(packageTypeLimits(requirePackage(ctx.account, ctx.params.pkg).typeId)));
  router.add('GET', '/package/:pkg/web/usage', (ctx) => bare(packageWebUsage(requirePackage(ctx.account, ctx.params.pkg))));
  router.add('POST', '/reseller/:reseller/deleteWeb', deleteWeb);
  router.add('POST', '/reseller/:reseller/updatePackage', updatePackage);
  router.add('POST', '/package/:pkg/names', names);
  router.add('POST', '/package/:pkg/userStatus', userStatus);
}

/** `domain_name` and `extra_domain_names` of spec 4.2 / 4.6: canonical, distinct, primary first. */
export function readPackageNames(body: Record<string, unknown>): string[] {
  const primary = expectDomain(body.domain_name, 'domain_name');
  const extra = body.extra_domain_names === undefined || body.extra_domain_names === null
    ? []
    : expectDomainList(body.extra_domain_names, 'extra_domain_names');
  if (extra.includes(primary)) throw validationError(`extra_domain_names: ${primary} is the domain_name already`);
  return [primary, ...extra];
}

/**
 * A document root: a relative path inside the package, no "..", no absolute path.
 * `[]` is an empty map: PHP's json_encode turns an empty array into `[]`, and 20i's PHP
 * module sends bodies through json_encode.
 */
function readDocumentRoots(value: unknown, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(value) && value.length === 0) return out;
  for (const [domain, root] of Object.entries(expectObject(value, 'documentRoots'))) {
    const name = expectDomain(domain, `documentRoots key "${domain}"`);
    if (!names.includes(name)) throw validationError(`documentRoots: ${name} is not a domain of this package`);
    const path = expectString(root, `documentRoots.${domain}`, { min: 1, max: 255 });
    const segments = path.split(/[\\/]/);
    if (/^[\\/]/.test(path) || /^[A-Za-z]:/.test(path) || segments.includes('..') || /[\x00-\x1f]/.test(path)) {
      throw validationError(`documentRoots.${domain} must be a relative path without ".." (got "${path}")`);
    }
    out[name] = path;
  }
  return out;
}

/** A label: a string of at most 255 characters; "" means no label. */
function readLabel(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  const label = expectString(value, path, { max: 255 });
  return label === '' ? null : label;
}

function addWeb(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  if (body.type === undefined) throw validationError('type is required (a package type id)');
  const typeId = parseId(body.type);
  if (typeId === undefined) throw validationError(`unknown package type ${JSON.stringify(body.type)}`);
  const names = readPackageNames(body);
  const label = readLabel(body.label, 'label');
  const documentRoots = body.documentRoots === undefined || body.documentRoots === null ? {} : readDocumentRoots(body.documentRoots, names);
  // Form bodies cannot carry null: an empty stackUser means "no user" there.
  const noUser = body.stackUser === undefined || body.stackUser === null || (ctx.form && body.stackUser === '');
  const stackUserId = noUser ? null : expectUserRef(body.stackUser, 'stackUser');
  const pkg = createPackage(ctx.state, ctx.account, { typeId, names, label, documentRoots, stackUserId, cloudServerId: null }, ctx.nowMs);
  return wrapped(pkg.id);
}

/** `{"delete-id": ["123", 456]}` -> `{"123": true, "456": false}` (false: not found). */
function deleteWeb(ctx: ApiContext) {
  const ids = expectArray(expectBody(ctx.body)['delete-id'], 'delete-id');
  // Keys are client-chosen strings: a prototype-free object keeps e.g. "__proto__" an ordinary key.
  const result: Record<string, boolean> = Object.create(null);
  ids.forEach((item, i) => {
    if (typeof item !== 'string' && typeof item !== 'number') throw validationError(`delete-id[${i}] must be a package id`);
    const id = parseId(item);
    result[String(item)] = id !== undefined && deletePackage(ctx.state, ctx.account, id);
  });
  return wrapped(result);
}

/** `{"id": [...], "packageBundleTypes": {id: type}, "labels": {id: label}}`. */
function updatePackage(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const ids = expectArray(body.id, 'id').map((v, i) => expectId(v, `id[${i}]`));
  if (ids.length === 0) throw validationError('id must list at least one package id');
  const packages = new Map(ids.map((id) => [id, requirePackage(ctx.account, String(id))]));
  if (body.packageBundleTypes === undefined && body.labels === undefined) {
    throw validationError('nothing to update: give packageBundleTypes and/or labels');
  }
  const target = (key: string, field: string) => {
    const pkg = packages.get(parseId(key) ?? -1);
    if (!pkg) throw validationError(`${field}: package ${key} is not listed in id`);
    return pkg;
  };
  if (body.packageBundleTypes !== undefined) {
    for (const [key, type] of Object.entries(expectObject(body.packageBundleTypes, 'packageBundleTypes'))) {
      const typeId = parseId(type);
      if (typeId === undefined) throw validationError(`unknown package type ${JSON.stringify(type)}`);
      changePackageType(ctx.account, target(key, 'packageBundleTypes'), typeId);
    }
  }
  if (body.labels !== undefined) {
    for (const [key, label] of Object.entries(expectObject(body.labels, 'labels'))) {
      target(key, 'labels').label = readLabel(label, `labels.${key}`);
    }
  }
  return wrapped(true);
}

/** `{"add": [...], "rem": [...]}` -> every name of the package. */
function names(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const pkg = requirePackage(ctx.account, ctx.params.pkg);
  if (body.add === undefined && body.rem === undefined) throw validationError('give add and/or rem');
  const list = (field: 'add' | 'rem') => {
    if (body[field] === undefined || body[field] === null) return [];
    const out = expectArray(body[field], field).map((n, i) => expectDomain(n, `${field}[${i}]`));
    return [...new Set(out)];
  };
  return wrapped(changeNames(ctx.state, ctx.account, pkg, list('add'), list('rem')));
}

/** `{"subservices": {"default": false}}` disables; `{"includeRepeated": true, "subservices": {"default": true}}` enables. */
function userStatus(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const pkg = requirePackage(ctx.account, ctx.params.pkg);
  const enabled = expectBoolean(expectObject(body.subservices, 'subservices').default, 'subservices.default', ctx.form);
  if (body.includeRepeated !== undefined) expectBoolean(body.includeRepeated, 'includeRepeated', ctx.form);
  pkg.enabled = enabled;
  return wrapped(true);
}
