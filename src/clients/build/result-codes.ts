// The build result codes of build-service-api.md ("States and transitions", line 47), shared by
// build-ref (which reports them) and the BUILD checks (which ask for them).
export const BUILD_RESULT_CODES = ['succeeded', 'failed', 'disabled', 'excluded', 'scheduled', 'building', 'broken', 'unresolvable'] as const;
export type BuildResultCode = (typeof BUILD_RESULT_CODES)[number];

export const isBuildResultCode = (s: string): s is BuildResultCode => (BUILD_RESULT_CODES as readonly string[]).includes(s);
