import { JSON_TYPE } from '../reply.js';
import type { GetRoute } from '../route.js';

/**
 * GET /openapi.json: the document `text` returns, made once every route is known (it describes
 * this route too, so it cannot exist when the route is made).
 */
export function openapiRoute(text: () => string | undefined): GetRoute {
  return {
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document, generated from the request and response schemas',
    success: 'application/json',
    errors: [],
    answer: async () => ({ status: 200, body: text(), contentType: JSON_TYPE }),
  };
}
