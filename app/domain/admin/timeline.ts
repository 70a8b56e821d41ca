/** The longest internal note the order dialog accepts. */
export const MAX_NOTE_LENGTH = 2000;
