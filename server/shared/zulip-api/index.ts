/**
 * The shapes that cross the wire, by friendly names: one typed description of
 * Zulip's API that the server's formatters and event builders, the route
 * parameter specs, the tRPC outputs, the admin UI and the browser chat all
 * import (type-only, so nothing of it is bundled).
 *
 * Everything here is derived from `generated.ts`, which
 * scripts/generate-api-types.ts makes from Zulip's OpenAPI description and
 * Hearth's extension of it (api/). A field Hearth serves that the description
 * lacks belongs in api/hearth-extension.yaml, never in an edit here or there.
 *
 * Zulip's description marks almost no field `required`; it says in prose
 * which fields are absent in which cases. The served shapes below make every
 * field present except those (`Served<Schema, 'only' | 'sometimes'>`), which
 * is what the server writes and what clients read.
 */
import type { components, operations, paths } from './generated.js';

export type { components, operations, paths };

/** Every component schema of the description, by its name there. */
export type Schemas = components['schemas'];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** `T` with every field present except `Optional`, which stay optional. */
export type Served<T, Optional extends keyof T = never> = Simplify<
  { [K in Exclude<keyof T, Optional>]-?: Exclude<T[K], undefined> } & {
    [K in Optional]?: T[K];
  }
>;

// ---------------------------------------------------------------- objects

/** One recipient of a direct message (`display_recipient` of a DM). */
export type DisplayRecipientUser = Served<Schemas['MessagesBase_display_recipient_oneOf_inner']>;

/** A widget's submessage (polls, to-do lists) on a message. */
export type Submessage = Served<Schemas['MessagesBase_submessages_inner']>;

/** An emoji reaction on a message. */
export type Reaction = Served<Schemas['EmojiReaction']>;

/** A message as events and `GET /messages` give it (without the per-user flags). */
export type Message = Simplify<
  Omit<
    Served<
      Schemas['MessagesBase'],
      'stream_id' | 'last_edit_timestamp' | 'last_moved_timestamp' | 'edit_history'
    >,
    'display_recipient' | 'reactions' | 'submessages'
  > & {
    /** The channel's name, or the DM's recipients. */
    display_recipient: string | DisplayRecipientUser[];
    reactions: Reaction[];
    submessages: Submessage[];
  }
>;

/** A message of `GET /messages`: the message dict with the user's flags and search highlights. */
export type FetchedMessage = Message & {
  flags: string[];
  match_content?: string;
  match_subject?: string;
};

/** A user or bot (`realm_users`, `GET /users`, `realm_user` add events). */
export type User = Served<
  Schemas['UserBase'],
  'delivery_email' | 'profile_data' | 'bot_type' | 'bot_owner_id' | 'is_deleted'
>;

/** A channel as `GET /streams` and `streams` in register give it. */
export type Stream = Served<Schemas['BasicChannel']>;

/** A channel of `GET /streams`: `is_default` with `include_default`. */
export type ListedStream = Served<
  Schemas['get_streams_200_response_allOf_streams_inner'],
  'is_default'
>;

/** One of the user's subscriptions (`subscriptions` in register, `GET /users/me/subscriptions`). */
export type Subscription = Served<
  Schemas['Subscription'],
  'subscribers' | 'partial_subscribers' | 'in_home_view'
>;

/** A bot as its owner and administrators see it (`realm_bots`, `realm_bot` events, the admin UI). */
export type Bot = Served<Schemas['Bot']>;

/**
 * A custom profile field (`custom_profile_fields`, GET /realm/profile_fields).
 * Zulip's as_dict writes `display_in_profile_summary` and
 * `use_for_user_matching` only when true, though the description calls the
 * first required.
 */
export type ProfileField = Served<
  Schemas['CustomProfileField'],
  'display_in_profile_summary' | 'use_for_user_matching'
>;

export type UserGroup = Served<Schemas['UserGroup'], 'deactivated'>;
export type ChannelFolder = Served<Schemas['ChannelFolder']>;
export type CustomEmoji = Served<Schemas['RealmEmoji'], 'author_id'>;
export type Draft = Served<Schemas['Draft'], 'id' | 'timestamp'>;
export type SavedSnippet = Served<Schemas['SavedSnippet']>;
export type NavigationView = Served<Schemas['NavigationView']>;
/** `topic` only for a channel message. */
export type ScheduledMessage = Served<Schemas['ScheduledMessageBase'], 'topic'>;
export type Reminder = Served<Schemas['Reminder']>;
/** An upload as its owner sees it (GET /attachments, `attachment` events). */
export type Attachment = Simplify<
  Omit<Served<Schemas['Attachment']>, 'messages'> & {
    messages: Served<Schemas['Attachment_messages_inner']>[];
  }
>;
export type RealmExport = Served<Schemas['RealmExport']>;
export type RealmDomain = Served<Schemas['RealmDomain']>;
export type UserStatus = Schemas['UserStatus'];
export type GroupSettingValue = Schemas['GroupSettingValue'];

// ----------------------------------------------------------------- events

/** Any event of `GET /events`, a union discriminated by `type` (and `op`). */
export type ZulipEvent = Schemas['get_events_200_response_allOf_events_inner'];

/** The `type`s events have. */
export type EventType = NonNullable<ZulipEvent['type']>;

/** The events of one `type` (and, where events have one, `op`). */
export type EventOf<T extends EventType, Op extends string = string> =
  Extract<ZulipEvent, { type?: T }> extends infer E
    ? E extends unknown
      ? string extends Op
        ? E
        : E extends { op?: Op }
          ? E
          : never
      : never
    : never;

/**
 * `POST /register`'s answer. Which keys it has depends on `fetch_event_types`
 * and the client's capabilities, so its fields stay optional, as the
 * description has them.
 */
export type RegisterAnswer = Schemas['register_queue_200_response'];

/**
 * An event as a client receives it (the chat's event handlers): every field
 * the description lists is present, as Zulip always sends them although the
 * description marks most optional, except the `Sometimes` ones, which Zulip
 * sends only in some cases (`Delivered<'update_message', 'orig_subject'>`).
 * The server's builders are held to the same shape by `EventBody`.
 */
export type Delivered<T extends EventType, Sometimes extends string = never> =
  EventOf<T> extends infer E
    ? E extends unknown
      ? Served<E, Extract<Sometimes, keyof E>> & { type: T }
      : never
    : never;

/**
 * An event as an event builder writes it: the queue numbers it (`id`).
 * Builders check their payloads with `satisfies EventBody<'stream', 'delete'>`,
 * which refuses a field the description does not know and wants every field
 * it lists, except the `Sometimes` ones: those the description says are
 * present only in some cases (`EventBody<'delete_message', string,
 * 'message_id' | 'message_ids' | 'stream_id' | 'topic'>`).
 */
export type EventBody<
  T extends EventType,
  Op extends string = string,
  Sometimes extends string = never,
> =
  EventOf<T, Op> extends infer E
    ? E extends unknown
      ? Served<Omit<E, 'id'>, Extract<Sometimes, Exclude<keyof E, 'id'>>>
      : never
    : never;

/**
 * An event's fields but its `type`, for a helper that adds the `type` itself
 * (`emitToOwner(tx, ownerId, { op: 'add', drafts })`); as strict as
 * `EventBody`, op by op.
 */
export type EventFields<
  T extends EventType,
  Op extends string = string,
  Sometimes extends string = never,
> =
  EventBody<T, Op, Sometimes> extends infer E
    ? E extends unknown
      ? Omit<E, 'type'>
      : never
    : never;

/**
 * `stream` op `update`: `rendered_description` comes with a new
 * `description`, `history_public_to_subscribers` and `is_web_public` with a
 * privacy change.
 */
export type StreamUpdateEvent = EventBody<
  'stream',
  'update',
  'rendered_description' | 'history_public_to_subscribers' | 'is_web_public'
>;

/**
 * Any event as the event hub carries it: a member of the union less its
 * `id`, its `type` present, its other fields as the description has them
 * (mostly optional; each builder's `satisfies EventBody<…>` is the strict
 * check).
 */
export type AnyEventBody = ZulipEvent extends infer E
  ? E extends { type?: infer T }
    ? Omit<E, 'id' | 'type'> & { type: NonNullable<T> }
    : never
  : never;

// ----------------------------------------------------------------- routes

/** A path template of the description (`/messages/{message_id}`). */
export type ApiPath = keyof paths;
export type ApiMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** The operation at a path and method. */
export type Operation<P extends ApiPath, M extends ApiMethod> = NonNullable<paths[P][M]>;

/** The form body's fields; an operation without a body (`requestBody?: never`) adds none. */
type BodyOf<O> = O extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? unknown
    : NonNullable<R> extends { content: infer C }
      ? C extends { 'application/x-www-form-urlencoded': infer B }
        ? B
        : C extends { 'multipart/form-data': infer B }
          ? B
          : unknown
      : unknown
  : unknown;

type ParamsIn<O, Where extends string> = O extends { parameters: infer Ps }
  ? Ps extends { [W in Where]?: infer Q }
    ? [NonNullable<Q>] extends [never] // `query?: never` reads as undefined
      ? unknown
      : NonNullable<Q>
    : unknown
  : unknown;

/** A route's request parameters: its query, path and form parameters in one object. */
export type Params<P extends ApiPath, M extends ApiMethod> = Simplify<
  ParamsIn<Operation<P, M>, 'query'> & ParamsIn<Operation<P, M>, 'path'> & BodyOf<Operation<P, M>>
>;

/** A route's success body (HTTP 200, JSON). */
export type ResponseBody<P extends ApiPath, M extends ApiMethod> =
  Operation<P, M> extends {
    responses: { 200: { content: { 'application/json': infer B } } };
  }
    ? B
    : never;
