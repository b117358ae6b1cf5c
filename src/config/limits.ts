/** The largest result count any recall or listing may ask for: bounds memory use and output size. */
export const MAX_LIMIT = 1000;
