import { describe, expect, it } from 'vitest';
import { withFlagSuggestions } from './unknown-flags.js';

const KNOWN = ['concurrency', 'json', 'base-url', 'dataset'];

describe('withFlagSuggestions (issue 27: "did you mean --concurrency?")', () => {
  it.each([
    {
      name: 'one near flag',
      message: 'Unknown argument: concurency',
      argv: ['--concurency', '3'],
      want: 'Unknown argument: concurency (--concurency: did you mean --concurrency?)',
    },
    {
      name: 'a flag given with =',
      message: 'Unknown argument: base_url',
      argv: ['--base_url=http://x'],
      want: 'Unknown argument: base_url (--base_url: did you mean --base-url?)',
    },
    {
      name: 'several, one without a near name',
      message: 'Unknown arguments: jsn, zzzzzz',
      argv: ['--jsn', '--zzzzzz'],
      want: 'Unknown arguments: jsn, zzzzzz (--jsn: did you mean --json?)',
    },
    { name: 'nothing near', message: 'Unknown argument: bogus', argv: ['--bogus'], want: 'Unknown argument: bogus' },
    {
      name: 'a positional word is not a flag',
      message: 'Unknown argument: jsn',
      argv: ['jsn'],
      want: 'Unknown argument: jsn',
    },
    {
      name: 'another message',
      message: 'Missing required argument: dataset',
      argv: [],
      want: 'Missing required argument: dataset',
    },
  ])('$name', ({ message, argv, want }) => {
    expect(withFlagSuggestions(message, KNOWN, argv)).toBe(want);
  });
});
