/**
 * @module runner/unscored-record
 * What the runner hands over per request: a RequestRecord whose scores are all still null. The app
 * computes scores (src/metrics) and writes the line; nothing here knows about scoring.
 */
import { z } from 'zod';
import { UnscoredModelFiguresSchema } from '../client/exchange.js';
import { RequestRecordSchema } from '../records/record.js';

export const UnscoredRecordSchema = RequestRecordSchema.extend({
  scores: z.null(),
  models: z.array(UnscoredModelFiguresSchema).nullable(),
});
export type UnscoredRecord = z.infer<typeof UnscoredRecordSchema>;
