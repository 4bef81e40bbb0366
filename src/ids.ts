import { v7 } from 'uuid';

/** Ids are time-ordered UUIDv7 (SPEC 3). */
export const newId = (): string => v7();

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
