/**
 * `reseller-hosting review`: reading the plan (plan.ts), classifying its changes
 * per reseller object (classify.ts) and rendering them (render.ts).
 */
export { parsePlanText } from './plan';
export { REVIEW_CATEGORIES, reviewPlan } from './classify';
export type { FieldChange, Review, ReviewCategory, ReviewItem } from './classify';
export { countsLine, renderReviewMarkdown, renderReviewText } from './render';
