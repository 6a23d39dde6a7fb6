/**
 * A success answer whose fields are already JSON text: `text` is what goes
 * between the envelope's braces after `"result":"success","msg":""`, e.g.
 * `"events":[...],"queue_id":"..."`. Lets GET /events join events serialised
 * once at delivery instead of stringifying them again on every poll.
 */
export class SerialisedFields {
  constructor(readonly text: string) {}
}
