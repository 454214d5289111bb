/**
 * Drift detection, import and plan review: the programmatic side of
 * `reseller-hosting drift | import | review` (see docs/drift.md).
 */
export { runDrift } from './drift';
export type { DriftOptions, DriftResult } from './drift';
export { compare, DRIFT_STATUSES, readLiveObjects } from './compare';
export type { ComparedObject, Comparison, LiveObjects, ObjectReport, ObjectStatus, ReportDiff, UnmanagedObject } from './compare';
export { findStackFiles, literalText, readDesired, readStack } from './desired';
export type { DesiredObject, DesiredState, StackFile, StackSettings } from './desired';
export { fixDrift } from './fix';
export type { FixAction, FixOutcome } from './fix';
export { DEFAULT_MAIL_CONCURRENCY } from './drift';
export { DRIFT_DOCUMENT_VERSION, renderFixActions, renderTable, summarize } from './report';
export type { DriftDocument, DriftSummary } from './report';
export { DEFAULT_CLASS_NAME, generateStack, summaryOf } from './import';
export type { ImportOptions, ImportResult } from './import';
export { DEFAULT_IMPORT_KINDS, importKinds, readImportAccount } from './import-account';
export type { ImportAccount } from './import-account';
export type { ImportCounts } from './import-emitters';
export { parsePlanText, renderReviewMarkdown, renderReviewText, REVIEW_CATEGORIES, reviewPlan } from './review';
export type { FieldChange, Review, ReviewCategory, ReviewItem } from './review';
export { runDriftCli } from './cli';
export { runImportCli } from './import-cli';
export { runReviewCli } from './review-cli';
