import type { Client, ClientOptions, FetchOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";
import { pagination, type PagedPath } from "./pagination.gen.js";

export type { components, operations, paths, PagedPath };
export { pagination };

/** The problem document (RFC 9457) of every error the service answers. */
export type Problem = components["schemas"]["Problem"];

/** An answer other than the one a helper expected: its status and problem. */
export declare class ApiError extends Error {
  constructor(status: number, problem: unknown);
  readonly status: number;
  /** The problem the service answered, when it answered one. */
  readonly problem: Problem | undefined;
}

/** A client of the service, typed by its contract. */
export type ApiClient = Client<paths>;

/** A client of the service; options as openapi-fetch's (baseUrl, headers, fetch). */
export declare function createApiClient(options?: ClientOptions): ApiClient;

/** The 200 answer of GET path: one page. */
export type PageOf<P extends PagedPath> = paths[P]["get"]["responses"][200]["content"]["application/json"];

/** One item of the list at path. */
export type ItemOf<P extends PagedPath> =
  PageOf<P>[(typeof pagination)[P]["itemsField"]] extends readonly (infer T)[] ? T : never;

/** The request of the first page: filters and limit, headers; the cursor is paginate's. */
export type PageInit<P extends PagedPath> = FetchOptions<paths[P]["get"]>;

/**
 * Yields every item of a list, page after page: the first page as init
 * asks (filters, limit), then each next one by the cursor the previous
 * answer named, until an answer names none. An answer other than 200
 * throws an ApiError; a path that does not page by cursor throws a
 * TypeError before any request.
 */
export declare function paginate<P extends PagedPath>(
  client: ApiClient,
  path: P,
  init?: PageInit<P>,
): AsyncGenerator<ItemOf<P>, void, undefined>;
