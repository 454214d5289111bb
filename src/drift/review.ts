/**
 * `reseller-hosting review`: reading the plan (review/plan.ts), classifying its changes
 * per reseller object (review/classify.ts) and rendering them (review/render.ts).
 */
export { parsePlanText } from './review/plan';
export { REVIEW_CATEGORIES, reviewPlan } from './review/classify';
export type { FieldChange, Review, ReviewCategory, ReviewItem } from './review/classify';
export { countsLine, renderReviewMarkdown, renderReviewText } from './review/render';
