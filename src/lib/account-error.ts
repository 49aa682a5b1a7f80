/** A refused account operation (CLI, settings app, mailbox setup): its message is shown to the operator as is. */
export class AccountError extends Error {}
