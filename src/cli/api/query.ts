/** Query parameters as the API client takes them; repeated keys are arrays. */
export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue | QueryValue[]>;
