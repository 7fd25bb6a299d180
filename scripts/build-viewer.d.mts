/** Builds the viewer's bundle into `outdir` (default dist/viewer); returns the two files written. */
export function buildViewer(outdir?: string): Promise<[string, string]>;
