// Types of scripts/build-cli.mjs for the tests that import it.
export declare const DIST: string;
export declare const DIGEST_FILE: string;
export declare const TSC: string;
export declare function compiledSources(): string[];
export declare function assetFiles(): string[];
export declare function sourceDigest(): string;
export declare function builtDigest(): string | null;
export declare function buildCli(options?: { force?: boolean; log?: (line: string) => void }): 'built' | 'up to date';
