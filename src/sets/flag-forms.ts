/**
 * @module sets/flag-forms
 * What the sets' flags accept, without the schemas (sets/schema, sets/resolve load zod): `--mode`'s
 * choices and `--set`'s form, for the commands' flags and help, which `--help` loads.
 */

/** `--mode`: streamed requests, full (stream=false) ones, or both. */
export const MODE_OPTIONS = ['stream', 'full', 'both'] as const;
export type ModeOption = (typeof MODE_OPTIONS)[number];

export const SET_FLAG_FORM = 'name=provider:version[@temperature], e.g. fast=openai:gpt-4o-mini@0';
