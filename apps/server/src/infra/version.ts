/**
 * The product's version: the root package.json's, the newest entry of CHANGELOG.md and
 * `esl_build_info{version}` on /metrics (metrics/version.test.ts keeps the three equal).
 */
export const VERSION = '0.4.2';
