import { PRODUCT_NAME } from '@cc/contracts';
import type { MailMessage } from './mailer';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): { text: string; html: string } {
  const text = [
    title,
    '',
    ...paragraphs,
    ...(action ? ['', `${action.label}: ${action.url}`] : []),
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${action ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#04b5e3;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p><p style="font-size:12px;color:#6b7280">Or paste this link into your browser: ${escapeHtml(action.url)}</p>` : ''}
<p style="font-size:12px;color:#6b7280">${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
  return { text, html };
}

export function welcomeMail(
  to: { name: string; email: string },
  entityName: string,
  setPasswordUrl: string,
): MailMessage {
  return {
    to: to.email,
    template: 'welcome',
    subject: `Welcome to ${PRODUCT_NAME}`,
    ...layout(
      `Welcome, ${to.name}`,
      [
        `An account has been created for you at ${entityName}.`,
        'Choose your password to sign in. This link works for 7 days.',
      ],
      { label: 'Choose your password', url: setPasswordUrl },
    ),
  };
}

export function resetPasswordMail(to: { name: string; email: string }, resetUrl: string): MailMessage {
  return {
    to: to.email,
    template: 'reset_password',
    subject: 'Reset your password',
    ...layout(
      `Hello ${to.name}`,
      [
        'We received a request to reset your password. This link works for 60 minutes.',
        'If you did not ask for this, you can ignore this e-mail.',
      ],
      { label: 'Reset password', url: resetUrl },
    ),
  };
}

export function verifyEmailMail(to: { name: string; email: string }, verifyUrl: string): MailMessage {
  return {
    to: to.email,
    template: 'verify_email',
    subject: 'Verify your e-mail address',
    ...layout(
      `Hello ${to.name}`,
      ['Please confirm this is your e-mail address. This link works for 24 hours.'],
      {
        label: 'Verify e-mail address',
        url: verifyUrl,
      },
    ),
  };
}

/** ASVS 2.5.5 / 2.2.3: the owner hears about a credential change made in their name, with no secret in the mail. */
export function passwordChangedMail(
  to: { name: string; email: string },
  how: 'reset' | 'changed',
  forgotUrl: string,
): MailMessage {
  return {
    to: to.email,
    template: 'password_changed',
    subject: 'Your password has been changed',
    ...layout(
      `Hello ${to.name}`,
      [
        how === 'reset'
          ? 'Your password was reset using a link sent to this address. You have been signed out on every device.'
          : 'Your password was changed. You have been signed out on your other devices.',
        'If this was not you, reset your password straight away and tell your administrator.',
      ],
      { label: 'Reset password', url: forgotUrl },
    ),
  };
}

/** Sent to the previous address when the e-mail of an account changes. */
export function emailChangedMail(to: { name: string; email: string }, newEmail: string): MailMessage {
  return {
    to: to.email,
    template: 'email_changed',
    subject: 'Your e-mail address has been changed',
    ...layout(`Hello ${to.name}`, [
      `The e-mail address of your account was changed to ${newEmail}.`,
      'If this was not you, contact your administrator straight away.',
    ]),
  };
}

/**
 * To the new address of an e-mail change: the change happens only when this link is followed (issue 11 §3), and,
 * when someone else asked for it, the one sent to the old address too (issue 29 §4).
 */
export function confirmEmailChangeMail(
  to: { name: string; email: string },
  confirmUrl: string,
  o: { alsoOldAddress?: boolean } = {},
): MailMessage {
  return {
    to: to.email,
    template: 'confirm_email_change',
    subject: 'Confirm your new e-mail address',
    ...layout(
      `Hello ${to.name}`,
      [
        `Your account's e-mail address is being changed to ${to.email}. Follow this link to confirm it; until then your account keeps its current address. This link works for 24 hours.`,
        ...(o.alsoOldAddress
          ? ['The change also needs the link sent to the current address of the account to be followed.']
          : []),
        'If you did not expect this, you can ignore this e-mail.',
      ],
      { label: 'Confirm e-mail address', url: confirmUrl },
    ),
  };
}

/**
 * To the old address when someone else (an administrator) asked to change it (issue 29 §4): the owner agrees by
 * following the link, else the account keeps its address whatever happens at the new one.
 */
export function approveEmailChangeMail(
  to: { name: string; email: string },
  newEmail: string,
  approveUrl: string,
): MailMessage {
  return {
    to: to.email,
    template: 'approve_email_change',
    subject: 'Do you agree to a change of your e-mail address?',
    ...layout(
      `Hello ${to.name}`,
      [
        `Someone who manages accounts in your organisation asked to change the e-mail address of your account to ${newEmail}.`,
        'If you agree, follow this link. The address changes only when this link and the one sent to the new address have both been followed. This link works for 24 hours.',
        'If you do not agree, ignore this e-mail: your account keeps this address. If you did not expect it, tell your administrator.',
      ],
      { label: 'Agree to the change', url: approveUrl },
    ),
  };
}

/** A sign-up (POST /register/{plan}) waits for its address to be confirmed: the organisation is created then. */
export function confirmRegistrationMail(
  to: { name: string; email: string },
  organisation: string,
  confirmUrl: string,
): MailMessage {
  return {
    to: to.email,
    template: 'confirm_registration',
    subject: `Confirm your e-mail address to finish signing up to ${PRODUCT_NAME}`,
    ...layout(
      `Hello ${to.name}`,
      [
        `Please confirm this is your e-mail address to finish creating ${organisation}. This link works for 24 hours.`,
        'If you did not sign up, ignore this e-mail: nothing is created without it.',
      ],
      { label: 'Confirm and create the account', url: confirmUrl },
    ),
  };
}

/**
 * A sign-up through a sign-up link waits for its address to be confirmed (issue 29 §5): the account is made, and its
 * owner signed in, when the link is followed.
 */
export function confirmSignupMail(
  to: { name: string; email: string },
  organisation: string,
  confirmUrl: string,
): MailMessage {
  return {
    to: to.email,
    template: 'confirm_signup',
    subject: `Confirm your e-mail address to join ${organisation}`,
    ...layout(
      `Hello ${to.name}`,
      [
        `Please confirm this is your e-mail address to finish creating your account at ${organisation}. This link works for 24 hours.`,
        'If you did not sign up, ignore this e-mail: nothing is created without it.',
      ],
      { label: 'Confirm and create my account', url: confirmUrl },
    ),
  };
}

/**
 * Someone asked to move another account to an address that already has one (issue 29 §5): they were answered as for
 * a free address, and the address's owner hears of it here instead. Nothing changes.
 */
export function emailChangeAttemptMail(to: { name: string; email: string }): MailMessage {
  return {
    to: to.email,
    template: 'email_change_attempt',
    subject: `Someone tried to use your e-mail address on another ${PRODUCT_NAME} account`,
    ...layout(`Hello ${to.name}`, [
      'Someone asked to change the e-mail address of another account to yours. Your address already has an account, so nothing was changed, and your account is as it was.',
      'If it was you, you already have an account with this address: sign in with it instead.',
      'If it was not you, you need do nothing.',
    ]),
  };
}

/** To the old address when a change is asked for, so its owner hears of it before anything changes. */
export function emailChangeRequestedMail(to: { name: string; email: string }, newEmail: string): MailMessage {
  return {
    to: to.email,
    template: 'email_change_requested',
    subject: 'A change of your e-mail address was requested',
    ...layout(`Hello ${to.name}`, [
      `Someone asked to change the e-mail address of your account to ${newEmail}. It changes only when the link sent to that address is followed.`,
      'If this was not you, contact your administrator straight away.',
    ]),
  };
}

/**
 * Someone signed up with an address that already has an account (issue 11 §8): the sign-up answered as for a new
 * address, and the owner hears about it here instead, with the way back in.
 */
export function registrationAttemptMail(
  to: { name: string; email: string },
  loginUrl: string,
  forgotUrl: string,
): MailMessage {
  return {
    to: to.email,
    template: 'registration_attempt',
    subject: `Someone tried to sign up to ${PRODUCT_NAME} with your e-mail address`,
    ...layout(
      `Hello ${to.name}`,
      [
        'Someone tried to create a new account with your e-mail address, which already has an account. No new account was created.',
        `If it was you, sign in at ${loginUrl}, or reset your password at ${forgotUrl} if you have forgotten it.`,
        'If it was not you, you need do nothing: your account is unchanged.',
      ],
      { label: 'Sign in', url: loginUrl },
    ),
  };
}

/**
 * Issue 29 §8: failed sign-ins hold the account's new devices back. The owner can still sign in where they have
 * before, and this one-time link makes the browser it is opened in such a place.
 */
export function signInLockedMail(to: { name: string; email: string }, unlockUrl: string): MailMessage {
  return {
    to: to.email,
    template: 'sign_in_locked',
    subject: 'Sign-in to your account is paused after failed attempts',
    ...layout(
      `Hello ${to.name}`,
      [
        'There have been several failed attempts to sign in to your account, so signing in from a new browser or device is paused for a while. Browsers and devices you have signed in with before are not affected.',
        'To sign in from a new browser now, open this link in it, then sign in with your password. The link works once, for 60 minutes.',
        'If the attempts were not yours, they failed, as the wrong password was given. If your password is weak or used elsewhere, change it.',
      ],
      { label: 'Sign in from this browser', url: unlockUrl },
    ),
  };
}

/**
 * A message sent in the app and also e-mailed (messaging, `messageTypes: ['mail']`). The text is plain, as the sender
 * wrote it, line by line (blank lines dropped) in both parts; the HTML part escapes every line, so it is never markup.
 */
export function messageMail(
  to: { name: string; email: string },
  senderName: string,
  text: string,
  messagesUrl: string,
): MailMessage {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return {
    to: to.email,
    template: 'message',
    subject: `New message from ${senderName}`,
    ...layout(`${senderName} sent you a message`, lines, { label: 'Read and reply', url: messagesUrl }),
  };
}

/**
 * Links point at the web app's routes (spec 1 §2): /reset-password/{token}, /verify-email/{token}; ours:
 * /unlock-sign-in/{token} (issue 29 §8).
 */
export const resetUrl = (appUrl: string, token: string, email: string) =>
  `${appUrl}/reset-password/${encodeURIComponent(token)}?email=${encodeURIComponent(email)}`;
export const verifyUrl = (appUrl: string, token: string) =>
  `${appUrl}/verify-email/${encodeURIComponent(token)}`;
export const unlockSignInUrl = (appUrl: string, token: string) =>
  `${appUrl}/unlock-sign-in/${encodeURIComponent(token)}`;
export const forgotPasswordUrl = (appUrl: string) => `${appUrl}/forgot-password`;
export const loginUrl = (appUrl: string) => `${appUrl}/login`;
export const messagesUrl = (appUrl: string) => `${appUrl}/messages`;
