// How much Docket reads as one input (a body, a report file, a stdin pipe): one cap for every reader, either side of the door.
// Pure constants.

export const INPUT_CAP_BYTES = 16 * 1024 * 1024;
/** How the cap reads in help texts and refusals. */
export const INPUT_CAP_TEXT = "16 MiB";
