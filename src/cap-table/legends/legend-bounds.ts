/**
 * The longest legend a certificate carries: the API's legend bodies and the OCF import's legend
 * templates are held to it (a certificate PDF and every legend list render the whole text).
 */
export const MAX_LEGEND_NAME_LENGTH = 200;
export const MAX_LEGEND_TEXT_LENGTH = 20_000;
