import { BadRequestError, ConflictError } from './errors';
import * as shape from './shape';
import type { Brand, ForwarderEntry, MailWriteResult, UpdateMailboxRequest } from './types';

/**
 * Every behaviour of the API that `/work/shared/api-notes.md` marks **assumed** (no
 * public source shows it) or that this client had to choose, each behind ONE function,
 * so that a correction is a one-place change. Nothing else in the client hard-codes
 * these choices.
 *
 * `reseller-hosting doctor` holds each exported function up against a live account: a
 * fact in src/commands/doctor/facts-<area>.ts names it (`assumedFact('fn', …)`), or, when
 * only a write or an error answer would show it, records why (`notReadOnly('fn', …)`).
 * A new export here needs one of the two (src/commands/doctor/fact.ts says where);
 * test/doctor/assumption-coverage.test.ts fails until it has it.
 */

// ---------------------------------------------------------------------------------------
// Conventions
// ---------------------------------------------------------------------------------------

/**
 * Assumed (api-notes "Conventions": no rate-limit headers are documented): a 429 answer
 * means the API rejected the request before doing anything, so even a write (POST) may
 * be sent again after the `Retry-After` delay. Used by the request layer's retry policy.
 */
export function postRejectedWithoutEffect(status: number): boolean {
  return status === 429;
}

/**
 * Assumed (api-notes: "a name already on another package (ConflictingObject) status
 * 409", "duplicate create: error, status 409" for mail, "409 if the domain is already on
 * a package" for addWeb): the error of a create whose object (or name) already exists.
 */
export function isDuplicateError(error: unknown): boolean {
  return error instanceof ConflictError;
}

/** Assumed (api-notes: "Validation failure status 400"): the error of a request the API found invalid. */
export function isValidationError(error: unknown): boolean {
  return error instanceof BadRequestError;
}

// ---------------------------------------------------------------------------------------
// Packages
// ---------------------------------------------------------------------------------------

/**
 * Assumed (spec 2.4 only shows `packageLabels: []`): the label of a package list entry.
 * `[]` means no label; otherwise the first element, which may be a string or an object
 * with a `label` (or else `name`) string field.
 */
export function labelFromPackageLabels(packageLabels: readonly unknown[]): string {
  const first = packageLabels[0];
  if (typeof first === 'string') return first;
  if (first !== null && typeof first === 'object') {
    const { label, name } = first as { label?: unknown; name?: unknown };
    if (typeof label === 'string') return label;
    if (typeof name === 'string') return name;
  }
  return '';
}

/**
 * Assumed, like `labelFromPackageLabels`, but for comparing: spec 2.4 shows only empty
 * `packageLabels`, so an empty list cannot tell "no label" from "labels are not listed
 * here". Undefined then: the label is not verifiable from a list entry.
 */
export function verifiableLabelFromPackageLabels(packageLabels: readonly unknown[]): string | undefined {
  return packageLabels.length === 0 ? undefined : labelFromPackageLabels(packageLabels);
}

/**
 * Assumed (api-notes shows `GET /package/{id}` as `{id, enabled, names, stackUsers,
 * typeRef, web: {name, platform}, …}` without a label): the label is the response's
 * `label` string, null meaning no label. When `label` is absent but the entry carries
 * `packageLabels` like a list entry, that is read instead. When neither says anything,
 * the label is undefined: not verifiable (DESIGN §3), never read as "no label".
 */
export function labelFromPackageDetail(body: shape.JsonObject, where: string): string | undefined {
  if (body.label === undefined) {
    return Array.isArray(body.packageLabels) ? verifiableLabelFromPackageLabels(body.packageLabels) : undefined;
  }
  return shape.optString(body.label, shape.at(where, 'label'));
}

/**
 * Whether a package is enabled, from `GET /package/{id}`. Production integrations read
 * `status` (suspended = !status; confidence: code); api-notes shows `enabled` (docs,
 * but not in any observed response). `status` wins; `enabled` is the fallback; a
 * detail with neither is a shape error (the state of a package is not optional).
 */
export function enabledFromPackageDetail(body: shape.JsonObject, where: string): boolean {
  if (body.status !== undefined && body.status !== null) return shape.boolean(body.status, shape.at(where, 'status'));
  return shape.boolean(body.enabled, shape.at(where, 'enabled'));
}

/**
 * The package type of `GET /package/{id}`: top-level `typeRef` (api-notes), else
 * `web.typeRef` (what a production integration reads).
 */
export function typeRefFromPackageDetail(body: shape.JsonObject, web: shape.JsonObject, where: string): number {
  if (body.typeRef !== undefined && body.typeRef !== null) return shape.id(body.typeRef, shape.at(where, 'typeRef'));
  return shape.id(web.typeRef, shape.at(shape.at(where, 'web'), 'typeRef'));
}

/**
 * Assumed (api-notes shows package types as `{id, label, platform}` only; the published
 * blueprint and a production integration add `limits`, whose unlimited value is the
 * string "INF"): a type's limits, unlimited as null. Absent or not an object: none
 * known (empty). A value that is neither a number nor "INF" is left out.
 */
export function limitsOfPackageType(entry: shape.JsonObject): Record<string, number | null> {
  const raw = entry.limits;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, number | null> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (value === 'INF') out[name] = null;
    else if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
    else if (typeof value === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(value)) out[name] = Number(value);
  }
  return out;
}

/**
 * Assumed (api-notes lists no address; a production integration reads
 * `web.info.ip4Address` of `GET /package/{id}`): the package's web IPv4 address, or
 * undefined when the response does not carry one.
 */
export function webIpv4FromPackageDetail(web: shape.JsonObject): string | undefined {
  const info = web.info;
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return undefined;
  const ip = (info as Record<string, unknown>).ip4Address;
  return typeof ip === 'string' && /^[0-9]{1,3}(\.[0-9]{1,3}){3}$/.test(ip) ? ip : undefined;
}

// ---------------------------------------------------------------------------------------
// Mail
// ---------------------------------------------------------------------------------------

/**
 * Assumed (api-notes: "shape of `forward` assumed"): an entry of the `forward` list of
 * `GET /package/{id}/email/{domain}` is `{"id": "f…", "local", "remote"}`.
 */
export function parseForwarderEntry(value: unknown, where: string): ForwarderEntry {
  const entry = shape.object(value, where);
  return {
    id: shape.string(entry.id, shape.at(where, 'id')),
    local: shape.string(entry.local, shape.at(where, 'local')),
    remote: shape.string(entry.remote, shape.at(where, 'remote')),
  };
}

/**
 * Assumed (api-notes: "shape of `forward` assumed"): the `forward` member of a mail
 * read. A read without it has no forwarders; the `mailbox` member stays required (it is
 * documented), so a changed shape is still an error rather than "no mail".
 */
export function forwardListOfMailRead(body: shape.JsonObject): unknown[] {
  return body.forward === undefined || body.forward === null ? [] : shape.array(body.forward, 'forward');
}

/**
 * Assumed (api-notes: new forwarder response "same envelope, type: forward"): the
 * unwrapped `result` of creating a forwarder is the mailbox envelope
 * `{"result": [objects], "name": domain}`. Because the shape is only assumed and the
 * write did succeed (2xx), a different shape is not an error: the result is then
 * `{name: domain, created: []}` and the caller reads the domain back as it always must.
 */
export function parseForwarderCreateResult(
  data: unknown,
  domain: string,
  parseEnvelope: (data: unknown, where: string) => MailWriteResult,
): MailWriteResult {
  try {
    return parseEnvelope(data, '');
  } catch (error) {
    if (error instanceof shape.ShapeMismatch) return { name: domain, created: [] };
    throw error;
  }
}

/**
 * The body of a mailbox update, keyed by the type-prefixed id as the service's own
 * clients send it (api-notes "Mail", update mailbox): `{"update": {"m123": {"password":
 * "…"}}}`. The password in it is `code` (a production webmail password driver sends
 * exactly this); `send`/`receive` in the same keyed object are assumed, sent as the
 * strings "true"/"false" as the (live) create body does. Absent fields are left out so
 * that they stay unchanged. The shape `{"update": {"mailbox": [{"id", …}]}}` appears in
 * no public source and is never sent.
 */
export function mailboxUpdateBody(update: UpdateMailboxRequest): unknown {
  const item: Record<string, string> = {};
  if (update.send !== undefined) item.send = update.send ? 'true' : 'false';
  if (update.receive !== undefined) item.receive = update.receive ? 'true' : 'false';
  if (update.password !== undefined) item.password = update.password;
  return { update: { [update.id]: item } };
}

/**
 * Assumed (api-notes: "same envelope" for a mailbox update): the update's response is
 * not needed (the caller reads the domain back), so any `result` is accepted.
 */
export function acceptMailboxUpdateResult(_data: unknown): void {
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Autoresponders
// ---------------------------------------------------------------------------------------

/**
 * Assumed (api-notes "Autoresponders": the `responder` list of the mail read is "docs +
 * code x1", but a read without it is not ruled out): a mail read without a `responder`
 * member has no autoresponders. An account whose package type lacks the feature may
 * leave it out; reading that as "none" never fails a plan of mailboxes.
 */
export function responderListOfMailRead(body: shape.JsonObject): unknown[] {
  return body.responder === undefined || body.responder === null ? [] : shape.array(body.responder, 'responder');
}

/**
 * Assumed (no public source shows how the API reads a responder's `startTime` /
 * `endTime` back): null, an empty string or `0` is none; an ISO 8601 date and time (with
 * a zone; milliseconds allowed; a space for the `T`; no zone read as UTC) or a number of
 * seconds since 1970 is that instant. Each is returned in the canonical UTC form
 * `YYYY-MM-DDTHH:MM:SSZ` (protocol's canonicalTimestamp), so a declared time compares
 * equal to the one read back whatever the form. Anything else is kept as read: the
 * difference then shows (and nothing loops on it).
 */
export function responderTimeOfRead(value: unknown, where: string): string | null {
  if (value === undefined || value === null || value === '' || value === 0) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value * 1000).toISOString().replace(/\.[0-9]{3}Z$/, 'Z');
  const text = shape.string(value, where).trim();
  const zoned = /([Zz]|[+-][0-9]{2}:?[0-9]{2})$/.test(text) ? text : `${text}Z`;
  const iso = zoned.replace(' ', 'T').replace(/([+-][0-9]{2})([0-9]{2})$/, '$1:$2');
  const ms = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}/.test(iso) ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? text : new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

/**
 * Assumed (the production plugin sends `null` for both; no source shows a set one): a
 * start or end time is sent as the canonical UTC text `YYYY-MM-DDTHH:MM:SSZ`, none as null.
 */
export function responderTimeForWrite(canonical: string | null): string | null {
  return canonical;
}

/**
 * Assumed (api-notes "Autoresponders", delete: "same as mailboxes"): an autoresponder is
 * deleted by its `r…` id in the mail endpoint's flat `delete` array.
 */
export function responderDeleteBody(id: string): unknown {
  return { delete: [id] };
}

// ---------------------------------------------------------------------------------------
// Cloud servers
// ---------------------------------------------------------------------------------------

/**
 * Assumed (spec 2.9 says the brand comes back in response headers but not their names;
 * api-notes chose `X-Brand-Name` and `X-Brand-Logo`): the reseller brand of a server
 * queried by id. Undefined when neither header is present or both are empty.
 * `headers` has lowercased names.
 */
export function brandFromHeaders(headers: Readonly<Record<string, string>>): Brand | undefined {
  const name = headerText(headers['x-brand-name']);
  const logoUrl = headerText(headers['x-brand-logo']);
  if (name === '' && logoUrl === '') return undefined;
  return { name, logoUrl };
}

/**
 * Assumed (nothing shows how a brand outside printable ASCII travels in a header): it
 * is percent-encoded. A value is decoded only when that yields non-ASCII text, so an
 * ASCII name that merely contains "%" stays as it is.
 */
function headerText(value: string | undefined): string {
  const raw = value?.trim() ?? '';
  if (!/%[0-9A-Fa-f]{2}/.test(raw)) return raw;
  try {
    const decoded = decodeURIComponent(raw);
    return /[^\x00-\x7f]/.test(decoded) ? decoded : raw;
  } catch {
    return raw;
  }
}

// ---------------------------------------------------------------------------------------
// DNS records
// ---------------------------------------------------------------------------------------

/**
 * The records of one zone's value, in a read of every zone (`{"example.com": {"records":
 * [...]}}`, live) or of one zone (shape assumed: the same value). api-notes: "accept a
 * bare record list as the value too".
 */
export function recordListOfZoneValue(value: unknown, where: string): unknown[] {
  if (Array.isArray(value)) return value;
  const zone = shape.object(value, where);
  return shape.array(zone.records, shape.at(where, 'records'));
}

/**
 * A name as a DNS read gives it (`host`, targets): api-notes "possibly with a trailing
 * dot"; read lowercase without it.
 */
export function dnsNameOfRead(value: unknown, where: string): string {
  return shape.string(value, where).trim().toLowerCase().replace(/\.$/, '');
}

/**
 * A number of a DNS read (`pri`, `weight`, `port`): api-notes "may read back as strings
 * or numbers (assumed): accept both".
 */
export function dnsNumberOfRead(value: unknown, where: string): number {
  return shape.number(value, where);
}

/**
 * Assumed (api-notes: the write's `{"result": …}` content "no client reads"): the
 * unwrapped result of a DNS write is not looked at, whatever it is. Callers read the
 * zone again to learn what happened, and the new refs.
 */
export function acceptDnsWriteResult(_result: unknown): void {
  // deliberately not read
}

// ---------------------------------------------------------------------------------------
// Web: HTTPS and PHP version of a package
// ---------------------------------------------------------------------------------------

/**
 * Assumed (api-notes "Web": "one portal treats 409 as 'already so'"): a 409 answer to
 * setting force-HTTPS means it already has that value, so the write is done. The caller
 * reads it back as after any write.
 */
export function forceHttpsAlreadySo(error: unknown): boolean {
  return error instanceof ConflictError;
}

/**
 * Chosen (api-notes "Web": free ones have provider `letsencrypt/standard`): a certificate
 * is a free one when its provider names Let's Encrypt, whatever follows the slash (a
 * variant such as `letsencrypt/wildcard` would count too).
 */
export function isFreeCertificateProvider(provider: string): boolean {
  return /^letsencrypt(\/|$)/i.test(provider.trim());
}

/**
 * Assumed (api-notes "Web": `POST …/web/phpVersion` `{"value": "php82"}`; clients also
 * send `{"version"}` and `{"phpVersion"}`): the body that sets a package's PHP version,
 * given the value in the API's format (`phpVersionOnWire`).
 */
export function phpVersionWriteBody(wireValue: string): unknown {
  return { value: wireValue };
}

/**
 * Assumed (api-notes "Web": the read gives "php82"; whether a write takes `php82` or
 * `8.2` is unconfirmed): a version as a declaration writes it (major.minor, "8.2") in the
 * API's format, "php" and the digits ("php82").
 */
export function phpVersionOnWire(version: string): string {
  return `php${version.trim().replace('.', '')}`;
}

/**
 * Assumed, like `phpVersionOnWire`: the version `GET …/web/phpVersion` gives, as a
 * declaration writes it. Reads "php82" (and "php8.2", "8.2", "8.2.27") as "8.2": the
 * first digit is the major version, the rest the minor one, when the text has no dot.
 * Undefined when the text holds no version (tolerant reader: then not verifiable).
 */
export function phpVersionOfRead(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase().replace(/^php-?/, '');
  const dotted = /^([0-9]{1,2})\.([0-9]{1,2})(\.[0-9]+)?$/.exec(text);
  if (dotted) return `${Number(dotted[1])}.${Number(dotted[2])}`;
  const digits = /^([0-9])([0-9]{1,2})$/.exec(text);
  return digits ? `${digits[1]}.${Number(digits[2])}` : undefined;
}

/**
 * Chosen (api-notes "Web": available versions are `[{"FullVersion", "Handler", "Title"}]`
 * with no example values): the major.minor version of one, from `FullVersion` ("8.2.27"),
 * else from `Handler` read like `phpVersionOfRead`. Undefined when neither says.
 */
export function phpVersionOfAvailable(entry: shape.JsonObject): string | undefined {
  return phpVersionOfRead(typeof entry.FullVersion === 'number' ? String(entry.FullVersion) : entry.FullVersion) ?? phpVersionOfRead(entry.Handler);
}

// ---------------------------------------------------------------------------------------
// Domain names (registrations)
// ---------------------------------------------------------------------------------------

/**
 * The nameservers of `GET /domain/{name}/nameservers`. api-notes: "a list of host names:
 * bare array in one client, `{"result": [...]}` in the official README: accept both".
 * Names are read lowercase without a trailing dot (as DNS names, dnsNameOfRead).
 */
export function nameserversOfRead(body: unknown, where: string): string[] {
  const listWhere = Array.isArray(body) ? where : shape.at(where, 'result');
  const list = Array.isArray(body) ? body : shape.array(shape.object(body, where).result, listWhere);
  return list.map((name, i) => dnsNameOfRead(name, shape.at(listWhere, i)));
}

/**
 * The body of `POST /domain/{name}/nameservers` (api-notes: `{"ns": [...], "old-ns":
 * [...]}`, "send the difference"). Chosen (no source shows a change that only adds or only
 * removes): both members are always sent, an empty list where there is nothing to add or
 * to remove.
 */
export function nameserverChangeBody(add: readonly string[], remove: readonly string[]): Record<string, string[]> {
  return { ns: [...add], 'old-ns': [...remove] };
}

/**
 * Assumed (api-notes list `expiryDate` and `deadDate` without their form): a date or a
 * date and time, ISO 8601 (`2026-03-01`, `2026-03-01T00:00:00+00:00`, `2026-03-01
 * 00:00:00`), read as RFC 3339 UTC (`2026-03-01T00:00:00Z`, what Terraform's `timecmp`
 * takes). A date without a time is midnight UTC; one without an offset is UTC. Anything
 * else (or nothing) is null: the date is then not known, never an error.
 */
export function registrationDateOfRead(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return null;
  const offset = m[3] === undefined || m[3] === 'Z' ? 'Z' : m[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const time = m[2] === undefined ? '00:00:00' : m[2].length === 5 ? `${m[2]}:00` : m[2];
  const ms = Date.parse(`${m[1]}T${time}${offset}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Assumed (api-notes list `renewalConstraint` without its type): text, kept as it is;
 * null (or absent) means none; another JSON value is kept as its JSON text.
 */
export function renewalConstraintOfRead(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------
// MySQL databases and FTP credentials
// ---------------------------------------------------------------------------------------

/**
 * Assumed (api-notes "MySQL databases": one live note shows a stored name carrying the
 * service's prefix and suffix when `allow_random` is set; with `allow_random: false`,
 * which this client always sends, it is assumed to be the requested name): whether a
 * listed database's `name` is the stored name of the requested one. Every look-up of a
 * database by the name a user declared goes through here.
 */
export function isStoredNameOf(stored: string, requested: string): boolean {
  return stored.toLowerCase() === requested.toLowerCase();
}

/**
 * Assumed (api-notes: `mysqlUserPassword` takes a `user_id`, and where it comes from is
 * not shown): the user created with a database (of the same name) has the database's id.
 */
export function mysqlUserIdOf(database: { readonly id: number }): number {
  return database.id;
}

/**
 * Assumed (api-notes "FTP credentials" shows a list `[{"username", "password"}]`): the
 * first entry is the package's primary FTP user. An empty list is a shape error (a
 * package always has one), never "no credentials".
 */
export function primaryFtpCredentials<T>(entries: readonly T[]): T {
  if (entries.length === 0) throw new shape.ShapeMismatch('expected the FTP credentials to list at least one user, got an empty list');
  return entries[0];
}
