// The hand-written half of the client: an openapi-fetch client typed by
// the contract, and paginate, which walks a list that pages by cursor.
import createClient from "openapi-fetch";
import { pagination } from "./pagination.gen.js";

export { pagination };

/** An answer other than the one a helper expected: its status and problem. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(`status ${status}: ${problem?.detail ?? problem?.title ?? "no problem document"}`);
    this.name = "ApiError";
    this.status = status;
    this.problem = problem;
  }
}

/** A client of the service; options as openapi-fetch's (baseUrl, headers, fetch). */
export function createApiClient(options) {
  return createClient(options);
}

/**
 * Yields every item of a list, page after page: the first page as init
 * asks (filters, limit), then each next one by the cursor the previous
 * answer named, until an answer names none. An answer other than 200
 * throws an ApiError; a path that does not page by cursor throws a
 * TypeError before any request.
 */
export async function* paginate(client, path, init = {}) {
  const p = Object.hasOwn(pagination, path) ? pagination[path] : undefined;
  if (p === undefined) {
    throw new TypeError(`GET ${path} does not page by cursor (no x-pagination in the contract)`);
  }
  const params = init.params ?? {};
  let cursor;
  for (;;) {
    const query = { ...params.query };
    if (cursor !== undefined) {
      query[p.cursorParam] = cursor;
    }
    const { data, error, response } = await client.GET(path, { ...init, params: { ...params, query } });
    if (error !== undefined || response.status !== 200) {
      throw new ApiError(response.status, error);
    }
    yield* data[p.itemsField];
    cursor = data[p.nextField];
    if (typeof cursor !== "string" || cursor === "") {
      return;
    }
  }
}
