/** The form encoding /siteverify and the demo accept besides JSON. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The media type of a Content-Type header, lower-cased and without parameters: type and subtype
 * are case-insensitive (RFC 9110), so `Application/X-WWW-Form-Urlencoded; charset=UTF-8` is
 * `application/x-www-form-urlencoded`.
 */
export function mediaType(contentType: string): string {
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}
