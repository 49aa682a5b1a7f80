// The mail path: a location's mailbox, the outbox every email starts from, and the `email.send` job.
// Importing this module registers nothing: call `registerMailJobs()` where the worker is wired, and
// `registerAttachmentSource(kind, source)` for every kind of attachment the platform sends.
export {
  ATTACHMENT_SOURCE_KIND, MAX_ATTACHMENTS, MAX_ATTACHMENTS_BYTES, MAX_ATTACHMENT_FILENAME_LENGTH, hasAttachmentSource, registerAttachmentSource,
  type AttachmentSource, type AttachmentSourceContext, type AttachmentSpec, type StoredAttachment,
} from './attachments';
export { EMAIL_SEND_QUEUE, EMAIL_STATUSES, listOutgoingEmails, MAX_CC_ADDRESSES, OutgoingEmailError, queueEmail, type EmailStatus, type OutgoingEmail, type OutgoingEmailView } from './mail.outbox';
export { getMailbox, MailboxError, setMailbox, showMailbox, type MailboxView } from './mailbox';
export { MailSendError, registerMailJobs, sendQueuedEmail, setMailTimeouts, type MailErrorCode, type MailTimeouts } from './mail.sender';
