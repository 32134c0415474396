/** The API versions this package carries (spec §9), newest first. One bundle per version. */
export const VERSIONS = ['2024-04-01', '2023-02-10', 'unstable'] as const;
export type ApiVersion = (typeof VERSIONS)[number];

/** The hand-written root document of a version. */
export const rootOf = (version: ApiVersion): string => `openapi/versions/${version}.yaml`;
