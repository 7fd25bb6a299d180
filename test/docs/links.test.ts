/**
 * @module test/docs/links
 * The manual stays navigable in a user's clone: every relative link in README.md and docs/**.md
 * resolves to a file (and its `#anchor` to a heading of that file, by GitHub's slug rules), and no
 * file of src/ or test/ cites the service's reference pages anywhere but under docs/reference/ (a user's clone
 * has nothing else). Reads files only; no network.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function walk(dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, keep));
    else if (keep(full)) out.push(full);
  }
  return out;
}

/** Lines outside fenced code blocks, with inline code spans blanked (links there are examples, not links). */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (opener !== null) {
      if (fence === undefined) fence = opener[1]!.charAt(0);
      else if (opener[1]!.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text: raw.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length)) });
  });
  return out;
}

/**
 * GitHub's heading anchor: inline markup reduced to its text, lower-cased, every character that is
 * not a letter, digit, space, `-` or `_` dropped, spaces to `-`; a repeated slug gets `-1`, `-2`, ….
 */
function headingSlugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const { text } of proseLinesKeepingCode(markdown)) {
    const m = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (m === null) continue;
    const plain = m[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

/** Like proseLines, but keeps inline code (a heading's code span is part of its anchor). */
function proseLinesKeepingCode(text: string): { line: number; text: string }[] {
  const lines = text.split('\n');
  return proseLines(text).map(({ line }) => ({ line, text: lines[line - 1]! }));
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Inline links and images `[t](target "title")` and reference definitions `[t]: target`. */
function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, text } of proseLines(readFileSync(file, 'utf8'))) {
    const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
    const def = /^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/.exec(text);
    if (def !== null) targets.push(def[1]!);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ file, line, target });
    }
  }
  return links;
}

/** What is wrong with one link, or undefined when it resolves. */
function brokenBecause(link: Link): string | undefined {
  const [rawPath = '', anchor] = link.target.split('#', 2);
  const filePath = decodeURIComponent(rawPath);
  const resolved = filePath === '' ? link.file : path.resolve(path.dirname(link.file), filePath);
  let isFile: boolean;
  try {
    isFile = statSync(resolved).isFile();
    if (!isFile && !statSync(resolved).isDirectory()) return 'no such file';
  } catch {
    return 'no such file';
  }
  if (anchor === undefined || anchor === '' || !isFile || !resolved.endsWith('.md')) return undefined;
  return headingSlugs(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())
    ? undefined
    : `no heading #${anchor}`;
}

const MANUAL = [path.join(ROOT, 'README.md'), ...walk(path.join(ROOT, 'docs'), (f) => f.endsWith('.md'))];

describe('links in README.md and docs/', () => {
  it('finds the manual and links in it', () => {
    expect(MANUAL.length).toBeGreaterThan(4);
    expect(MANUAL.flatMap(relativeLinks).length).toBeGreaterThan(10);
  });

  it('resolves every relative link to a file, and every #anchor to a heading', () => {
    const broken = MANUAL.flatMap(relativeLinks)
      .map((link) => ({ link, why: brokenBecause(link) }))
      .filter((b) => b.why !== undefined)
      .map(({ link, why }) => `${path.relative(ROOT, link.file)}:${link.line}: ${link.target} (${why})`);
    expect(broken).toEqual([]);
  });

  it('reports a missing file and a missing heading', () => {
    const file = path.join(ROOT, 'README.md');
    expect(brokenBecause({ file, line: 1, target: 'docs/no-such-page.md' })).toBe('no such file');
    expect(brokenBecause({ file, line: 1, target: '#no-such-heading' })).toBe('no heading #no-such-heading');
    expect(brokenBecause({ file, line: 1, target: 'docs/reference/metrics.md#goodput' })).toBe('no heading #goodput');
    expect(brokenBecause({ file, line: 1, target: 'docs/reference/metrics.md#load-figures' })).toBeUndefined();
  });
});

describe('headingSlugs (GitHub anchors)', () => {
  it.each([
    ['## Timing milestones', 'timing-milestones'],
    ['## Comparing runs: how many changes are real', 'comparing-runs-how-many-changes-are-real'],
    ['### The next protocol: `pydantic_ai` and `answer_metadata`', 'the-next-protocol-pydantic_ai-and-answer_metadata'],
    ['# Users who leave (`load --abandon`)', 'users-who-leave-load---abandon'],
    ['## v4.7–v4.8 and [links](x.md)', 'v47v48-and-links'],
  ])('%s → #%s', (heading, slug) => {
    expect(headingSlugs(heading)).toEqual(new Set([slug]));
  });

  it('numbers repeated headings and skips fenced code', () => {
    expect(headingSlugs('## Test vectors\n```\n# not a heading\n```\n### Test vectors\n')).toEqual(
      new Set(['test-vectors', 'test-vectors-1']),
    );
  });
});

describe('spec citations in the source', () => {
  const SPEC_PAGE = /(?<![\w/-])(?:[\w./-]*\/)?(metrics|wire-format|onyx-releases|service-api)\.md/g;

  it('cites the service reference only as docs/reference/…, in src/ and test/', () => {
    const code = (f: string): boolean => /\.(ts|mts|js|mjs|py)$/.test(f);
    const source = [...walk(path.join(ROOT, 'src'), code), ...walk(path.join(ROOT, 'test'), code)];
    expect(source.length).toBeGreaterThan(100);
    const outside: string[] = [];
    for (const file of source) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((text, i) => {
          for (const m of text.matchAll(SPEC_PAGE)) {
            if (!m[0].startsWith('docs/reference/')) outside.push(`${path.relative(ROOT, file)}:${i + 1}: ${m[0]}`);
          }
        });
    }
    expect(outside).toEqual([]);
  });
});
