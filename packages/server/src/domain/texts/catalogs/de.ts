import type { Catalog } from './en.js';

/** Deutsch. */
export const DE: Catalog = {
  'page.switcher.label': 'Sprache',
  'page.legal.label': 'Rechtliches',
  'page.terms': 'Nutzungsbedingungen',
  'page.privacy': 'Datenschutzerklärung',
  'page.title': '{title} · {org}',

  'login.title': 'Anmelden',
  'login.email': 'E-Mail-Adresse',
  'login.password': 'Passwort',
  'login.submit': 'Anmelden',
  'login.forgot': 'Passwort vergessen?',
  'login.new_here': 'Neu hier?',
  'login.create_account': 'Konto erstellen',
  'login.invalid': 'E-Mail-Adresse oder Passwort ist falsch.',
  'login.throttled':
    'Zu viele Anmeldeversuche. Versuchen Sie es in {minutes, plural, one {# Minute} other {# Minuten}} erneut.',
  'login.passkey.or': 'Oder ganz ohne Tippen:',
  'login.passkey.button': 'Mit einem Passkey anmelden',
  'login.connection': 'Anmelden mit {connection}',
  'signed_in.title': 'Angemeldet',
  'signed_in.heading': 'Sie sind angemeldet',
  'signed_in.as': 'Angemeldet als {email}.',
  'signed_in.close': 'Sie können diese Seite schließen und zur Anwendung zurückkehren.',

  'throttled.attempts':
    'Zu viele Versuche. Versuchen Sie es in {minutes, plural, one {# Minute} other {# Minuten}} erneut.',
  'throttled.later': 'Zu viele Versuche. Versuchen Sie es später erneut.',
  'throttled.mails':
    'Zu viele Bestätigungs-E-Mails. Versuchen Sie es in {minutes, plural, one {# Minute} other {# Minuten}} erneut.',
  'throttled.codes':
    'Zu viele eingegebene Codes. Versuchen Sie es in {minutes, plural, one {# Minute} other {# Minuten}} erneut.',
  'throttled.links':
    'Zu viele angeforderte Links. Versuchen Sie es in {minutes, plural, one {# Minute} other {# Minuten}} erneut.',
  'throttled.requests':
    'Zu viele Anfragen für diese Adresse. Versuchen Sie es in {minutes, plural, one {# Minute} other {# Minuten}} erneut.',

  'signup.title': 'Konto erstellen',
  'signup.first_name': 'Vorname',
  'signup.last_name': 'Nachname',
  'signup.password': 'Passwort (mindestens 8 Zeichen)',
  'signup.password_again': 'Passwort wiederholen',
  'signup.submit': 'Konto erstellen',
  'signup.domains': 'Offen für Adressen unter {domains}.',
  'signup.domains.mailed':
    'Wir senden Ihnen einen Link, mit dem Sie Ihr Passwort wählen und Ihr Konto fertigstellen.',
  'signup.send_link': 'Link senden',
  'signup.have_account': 'Sie haben schon ein Konto?',
  'signup.exists': 'Für diese E-Mail-Adresse gibt es bereits ein Konto. Melden Sie sich stattdessen an.',
  'signup.refused': 'Sie können hier kein Konto erstellen.',
  'signup.check_form': 'Bitte prüfen Sie das Formular.',
  'signup.check_form.detail': 'Bitte prüfen Sie das Formular: {detail}.',
  'signup.mismatch': 'Die beiden Passwörter stimmen nicht überein.',
  'signup.closed.title': 'Einladung erforderlich',
  'signup.closed.invite_only':
    'Konten für {org} werden nur auf Einladung erstellt. Bitten Sie die Organisation um eine Einladung.',
  'signup.closed.domains': 'Nur Adressen unter {domains} können hier ein Konto erstellen.',
  'signup.sent.title': 'Sehen Sie in Ihr Postfach',
  'signup.sent.notice':
    'Wenn mit dieser Adresse hier ein Konto erstellt werden kann, ist ein Link zum Fertigstellen unterwegs.',
  'signup.sent.validity':
    'Der Link funktioniert einmal, {hours, plural, one {eine Stunde} other {# Stunden}} lang.',
  'signup.finish.title': 'Konto fertigstellen',
  'signup.finish.for': 'Für {email}.',

  'consent.title': 'Zugriff erlauben?',
  'consent.wants': '{client} möchte Ihr Konto {email} verwenden.',
  'consent.document_host':
    'Die Anwendung beschreibt sich selbst unter {host}; mehr weiß dieser Dienst nicht über sie.',
  'consent.asks': 'Sie möchte:',
  'consent.asks_identity': 'Sie möchte wissen, wer Sie sind.',
  'consent.resource': '{name} ({identifier}) in Ihrem Namen nutzen',
  'consent.answer_to': 'Ihre Antwort wird an {host} zurückgesendet.',
  'consent.third_party':
    'Diese Anwendung wurde von einem Dritten registriert, nicht von der Organisation. Erlauben Sie sie nur, wenn Sie ihr vertrauen.',
  'consent.allow': 'Erlauben',
  'consent.deny': 'Ablehnen',
  'consent.choose': 'Wählen Sie „Erlauben“ oder „Ablehnen“.',
  'scope.openid': 'Wissen, wer Sie sind',
  'scope.profile': 'Ihren Namen, Ihr Bild und weitere Profilangaben sehen',
  'scope.email': 'Ihre E-Mail-Adresse sehen',
  'scope.address': 'Ihre Postanschrift sehen',
  'scope.phone': 'Ihre Telefonnummer sehen',
  'scope.offline_access': 'Angemeldet bleiben, während Sie nicht da sind',
  'scope.org_read':
    'Ihre Organisationen sehen: Einstellungen, Mitglieder, Anwendungen, Benutzer, Signaturschlüssel und Webhooks',
  'scope.events_read': 'Die Audit-Ereignisse Ihrer Organisationen lesen',
  'scope.org_write':
    'Ihre Organisationen ändern: Einstellungen, Mitglieder, Anwendungen, Benutzer und Webhooks anlegen, ändern und löschen sowie Schlüssel und Geheimnisse erneuern',
  'scope.users_impersonate': 'Sich als Benutzer Ihrer Organisationen anmelden',

  'forgot.title': 'Passwort vergessen',
  'forgot.heading': 'Passwort vergessen?',
  'forgot.intro':
    'Geben Sie die Adresse Ihres Kontos ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort wählen.',
  'forgot.missing': 'Bitte geben Sie die E-Mail-Adresse Ihres Kontos ein.',
  'forgot.back': 'Zurück zur Anmeldung',
  'forgot.sent.title': 'Sehen Sie in Ihr Postfach',
  'forgot.sent.notice':
    'Wenn ein Konto diese Adresse verwendet, ist ein Link zum Wählen eines neuen Passworts dorthin unterwegs.',
  'forgot.sent.validity':
    'Der Link funktioniert einmal, {minutes, plural, one {eine Minute} other {# Minuten}} lang. Nichts angekommen? Sehen Sie im Spam-Ordner nach oder fordern Sie den Link in ein paar Minuten erneut an.',
  'reset.title': 'Neues Passwort wählen',
  'reset.for': 'Für {email}. Damit werden Sie überall abgemeldet.',
  'reset.password': 'Neues Passwort (mindestens 8 Zeichen)',
  'reset.password_again': 'Neues Passwort wiederholen',
  'reset.submit': 'Neues Passwort festlegen',
  'reset.mismatch':
    'Die beiden Passwörter stimmen nicht überein. Geben Sie zweimal dasselbe neue Passwort ein.',
  'reset.weak': 'Bitte wählen Sie ein anderes Passwort: {detail}.',
  'reset.done.title': 'Passwort geändert',
  'reset.done.heading': 'Ihr Passwort wurde geändert',
  'reset.done.notice': 'Sie wurden überall abgemeldet. Melden Sie sich mit Ihrem neuen Passwort wieder an.',
  'link.closed.title': 'Link abgelaufen',
  'link.closed.heading': 'Dieser Link funktioniert nicht mehr',
  'link.closed.reset':
    'Dieser Link zum Zurücksetzen des Passworts ist abgelaufen oder wurde bereits verwendet.',
  'link.closed.verification': 'Dieser Bestätigungslink ist abgelaufen oder wurde bereits verwendet.',
  'link.closed.sign_up': 'Dieser Registrierungslink ist abgelaufen oder wurde bereits verwendet.',
  'link.closed.again': 'Neuen Link anfordern',
  'link.closed.profile': 'Fordern Sie auf Ihrer Profilseite einen neuen Link an.',
  'verify.title': 'Adresse bestätigen',
  'verify.text': 'Bestätigen Sie, dass {email} die Adresse Ihres Kontos ist.',
  'verify.submit': 'Bestätigen',
  'verified.title': 'Adresse bestätigt',
  'verified.notice': '{email} ist bestätigt. Sie können diese Seite schließen.',

  'second_factor.title': 'Bestätigung in zwei Schritten',
  'second_factor.challenge': 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App für {email} ein.',
  'second_factor.code': 'Code',
  'second_factor.verify': 'Bestätigen',
  'second_factor.recovery_hint':
    'Kein Zugriff auf Ihre App? Geben Sie stattdessen einen Ihrer Wiederherstellungscodes ein.',
  'second_factor.wrong_code': 'Dieser Code stimmt nicht. Prüfen Sie Ihre App und versuchen Sie es erneut.',
  'second_factor.expired': 'Ihre Anmeldung ist abgelaufen. Melden Sie sich erneut an.',
  'second_factor.setup.title': 'Bestätigung in zwei Schritten einrichten',
  'second_factor.setup.required': '{org} verlangt von allen einen zweiten Schritt bei der Anmeldung.',
  'second_factor.setup.chosen':
    'Bei jeder Anmeldung wird nach Ihrem Passwort ein Code aus einer App auf Ihrem Telefon abgefragt.',
  'second_factor.setup.scan':
    '1. Scannen Sie diesen Code mit einer Authenticator-App (Google Authenticator, 1Password, Authy…).',
  'second_factor.setup.qr': 'QR-Code für Ihre Authenticator-App',
  'second_factor.setup.key':
    'Scannen klappt nicht? Geben Sie diesen Schlüssel in der App ein (zeitbasiert, 6 Ziffern):',
  'second_factor.setup.enter': '2. Geben Sie den 6-stelligen Code ein, den die App anzeigt.',
  'second_factor.setup.submit': 'Einschalten',
  'second_factor.codes.title': 'Wiederherstellungscodes sichern',
  'second_factor.on': 'Die Bestätigung in zwei Schritten ist eingeschaltet.',
  'second_factor.codes.text':
    'Wenn Sie Ihre Authenticator-App verlieren, meldet Sie jeder dieser Codes einmal an. Sie werden nur jetzt angezeigt: Schreiben Sie sie auf oder bewahren Sie sie in einem Passwort-Manager auf.',
  'second_factor.continue': 'Weiter',
  'second_factor.continue_to': 'Weiter zu {client}',
  'second_factor.codes_left':
    '{count, plural, one {Sie haben noch # Wiederherstellungscode.} other {Sie haben noch # Wiederherstellungscodes.}}',
  'second_factor.required_on':
    'Ihre Organisation verlangt die Bestätigung in zwei Schritten, daher kann sie nicht ausgeschaltet werden.',
  'second_factor.remove_code': 'Code aus Ihrer App oder ein Wiederherstellungscode',
  'second_factor.turn_off': 'Bestätigung in zwei Schritten ausschalten',
  'second_factor.back_to_profile': 'Zurück zu Ihrem Profil',
  'second_factor.section.on': 'Eingeschaltet.',
  'second_factor.section.manage': 'Verwalten',
  'second_factor.section.required': 'Ihre Organisation verlangt die Bestätigung in zwei Schritten.',
  'second_factor.section.off':
    'Ausgeschaltet. Verlangen Sie bei jeder Anmeldung einen Code aus einer Authenticator-App.',
  'second_factor.section.set_up': 'Bestätigung in zwei Schritten einrichten',

  'passkeys.title': 'Passkeys',
  'passkeys.intro':
    'Melden Sie sich per Fingerabdruck, Gesicht oder Bildschirmsperre statt mit Ihrem Passwort an. Ein Passkey zählt als Bestätigung in zwei Schritten.',
  'passkeys.none': 'Sie haben noch keine Passkeys.',
  'passkeys.added': 'Hinzugefügt am {date, date, medium}',
  'passkeys.never_used': 'nie verwendet',
  'passkeys.last_used': 'zuletzt verwendet am {date, date, medium}',
  'passkeys.synced': 'synchronisiert',
  'passkeys.remove': 'Entfernen',
  'passkeys.remove_label': 'Passkey {name} entfernen',
  'passkeys.name': 'Name des neuen Passkeys',
  'passkeys.name_example': 'z. B. Arbeitslaptop',
  'passkeys.add': 'Passkey hinzufügen',
  'passkeys.unsupported':
    'Zum Hinzufügen eines Passkeys brauchen Sie einen Browser, der Passkeys unterstützt, mit eingeschaltetem JavaScript.',
  'passkeys.full':
    'Sie haben so viele Passkeys, wie möglich sind. Entfernen Sie einen, um einen neuen hinzuzufügen.',
  'passkeys.problem.generic':
    'Das hat nicht geklappt. Versuchen Sie es erneut oder melden Sie sich anders an.',
  'passkeys.problem.cancelled': 'Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen.',
  'passkeys.already_removed': 'Dieser Passkey wurde bereits entfernt.',

  'device.title': 'Gerät verbinden',
  'device.enter': 'Geben Sie den Code ein, den Ihr Gerät anzeigt.',
  'device.code': 'Code',
  'device.continue': 'Weiter',
  'device.invalid_code':
    'Dieser Code ist ungültig oder abgelaufen. Prüfen Sie den Code auf Ihrem Gerät und versuchen Sie es erneut.',
  'device.confirm.title': 'Gerät erlauben?',
  'device.confirm.asking': 'Ein Gerät möchte {client} mit Ihrem Konto {email} verwenden.',
  'device.confirm.code': 'Es zeigt den Code {code}.',
  'device.confirm.warning':
    'Erlauben Sie es nur, wenn Sie die Anmeldung auf diesem Gerät selbst begonnen haben und es diesen Code anzeigt. Wenn Ihnen jemand diesen Code oder einen Link zu dieser Seite geschickt hat, lehnen Sie ab.',
  'device.done.title': 'Gerät verbunden',
  'device.done.notice':
    '{client} ist auf Ihrem Gerät angemeldet. Sie können diese Seite schließen und zum Gerät zurückkehren.',
  'device.denied.title': 'Anfrage abgelehnt',
  'device.denied.notice':
    'Das Gerät hat keinen Zugriff auf {client} erhalten. Sie können diese Seite schließen.',

  'invitation.join': '{org} beitreten',
  'invitation.invited':
    'Sie sind eingeladen, {role, select, owner {Inhaber in der Konsole von} member {Mitglied in der Konsole von} other {Benutzer von}} {org} zu werden, als {email}.',
  'invitation.invited_signed_in':
    'Sie sind eingeladen, {role, select, owner {Inhaber in der Konsole von} member {Mitglied in der Konsole von} other {Benutzer von}} {org} zu werden.',
  'invitation.new_here': 'Neu hier',
  'invitation.new_here.text': 'Wählen Sie Ihren Namen und ein Passwort, um anzunehmen.',
  'invitation.create': 'Annehmen und mein Konto erstellen',
  'invitation.have_account': 'Sie haben ein Konto mit dieser Adresse?',
  'invitation.have_account.text': 'Melden Sie sich an, um anzunehmen.',
  'invitation.sign_in': 'Anmelden und annehmen',
  'invitation.signed_in_as': 'Sie sind angemeldet als {email}.',
  'invitation.accept': 'Einladung annehmen',
  'invitation.welcome': 'Willkommen bei {org}',
  'invitation.now':
    'Sie sind jetzt {role, select, owner {Inhaber in der Konsole von} member {Mitglied in der Konsole von} other {Benutzer von}} {org}.',
  'invitation.open_console': 'Konsole öffnen',
  'invitation.wrong_password': 'Falsches Passwort.',
  'invitation.has_account':
    'Für diese Adresse gibt es bereits ein Konto: Melden Sie sich damit an, um anzunehmen.',
  'invitation.check_form': 'Bitte prüfen Sie das Formular: {detail}.',
  'invitation.to': 'Einladung zu {org}',
  'invitation.accepted.title': 'Diese Einladung wurde bereits verwendet',
  'invitation.accepted.text':
    'Ein Einladungslink funktioniert einmal, und dieser wurde bereits angenommen. Wenn Sie das waren, melden Sie sich an.',
  'invitation.expired.title': 'Diese Einladung ist abgelaufen',
  'invitation.expired.text':
    'Ein Einladungslink gilt 7 Tage, und dieser ist älter. Bitten Sie die Person, die Sie eingeladen hat, um einen neuen.',
  'invitation.revoked.title': 'Diese Einladung wurde zurückgezogen',
  'invitation.revoked.text':
    'Die Organisation hat diese Einladung zurückgezogen. Fragen Sie die Person, die Sie eingeladen hat, wenn Sie das für einen Irrtum halten.',
  'invitation.unknown.title': 'Dieser Einladungslink ist ungültig',
  'invitation.unknown.text':
    'Prüfen Sie, ob Sie den ganzen Link aus der E-Mail oder Nachricht geöffnet haben, oder bitten Sie um eine neue Einladung.',

  'logout.title': 'Abmelden?',
  'logout.asks': '{client} möchte Sie abmelden.',
  'logout.signed_in_as': 'Sie sind angemeldet als {email}.',
  'logout.submit': 'Abmelden',
  'logout.not_you':
    'Wenn Sie sich nicht abmelden wollten, schließen Sie diese Seite: Sie bleiben angemeldet.',
  'signed_out.title': 'Abgemeldet',
  'signed_out.heading': 'Sie haben sich abgemeldet',
  'signed_out.text':
    'Dieser Browser ist hier nicht mehr angemeldet, und die Anwendungen, bei denen Sie sich darüber angemeldet haben, wurden abgemeldet.',
  'signed_out.frame': 'Abmeldung bei einer Anwendung',
  'signed_out.close': 'Sie können diese Seite schließen.',
  'signed_out.continue': 'Weiter',
  'sign_out.section': 'Abmelden',
  'sign_out.section.text':
    'Beendet Ihre Anmeldung in diesem Browser und in den Anwendungen, die Sie darüber geöffnet haben.',

  'federation.continue.title': 'Anmeldung läuft',
  'federation.continue.heading': 'Sie werden angemeldet…',
  'federation.continue': 'Weiter',
  'federation.link_sent.title': 'Bestätigen Sie, dass es Ihr Konto ist',
  'federation.link_sent.exists':
    'Für {email} gibt es hier bereits ein Konto, aber seine Adresse wurde nie bestätigt.',
  'federation.link_sent.notice':
    'Um sich mit {connection} anzumelden, öffnen Sie den Link, den wir an {email} geschickt haben, in diesem Browser innerhalb von {minutes, plural, one {einer Minute} other {# Minuten}}.',
  'federation.link_sent.effect':
    'Die Verknüpfung meldet dieses Konto überall ab und entfernt sein Passwort, seine Passkeys und seinen zweiten Faktor: Danach melden Sie sich mit {connection} an.',
  'federation.link.title': 'Konto mit {connection} verknüpfen',
  'federation.link.text': 'Melden Sie sich ab jetzt mit {connection} bei {email} an.',
  'federation.link.effect':
    'Alle Sitzungen dieses Kontos enden, und sein Passwort, seine Passkeys und sein zweiter Faktor werden entfernt.',
  'federation.link.submit': 'Verknüpfen und anmelden',

  'form_post.title': 'Zurück zur Anwendung',
  'form_post.heading': 'Zurück zur Anwendung…',
  'form_post.continue': 'Weiter',

  'profile.title': 'Ihr Profil',
  'profile.saved': 'Gespeichert.',
  'profile.signed_in_as': 'Angemeldet als {email}',
  'profile.save': 'Speichern',
  'profile.link_closed':
    'Dieser Profillink ist abgelaufen oder wurde bereits verwendet. Öffnen Sie Ihr Profil erneut aus der Anwendung.',
  'profile.expired': 'Diese Profilseite ist abgelaufen. Öffnen Sie Ihr Profil erneut aus der Anwendung.',
  'profile.email.title': 'E-Mail-Adresse',
  'profile.email.confirmed': 'bestätigt',
  'profile.email.not_confirmed': 'noch nicht bestätigt',
  'profile.email.resend': 'Bestätigungslink erneut senden',
  'profile.email.new': 'Neue Adresse',
  'profile.current_password': 'Aktuelles Passwort',
  'profile.email.change': 'Adresse ändern',
  'profile.password.title': 'Passwort',
  'profile.password.new': 'Neues Passwort (mindestens 8 Zeichen)',
  'profile.password.change': 'Passwort ändern',
  'profile.password.effect': 'Eine Änderung meldet Sie überall sonst ab; dieser Browser bleibt angemeldet.',
  'profile.password.wrong': 'Ihr aktuelles Passwort stimmt nicht.',
  'profile.password.changed': 'Ihr Passwort wurde geändert. Ihre anderen Sitzungen wurden abgemeldet.',
  'profile.password.weak': 'Bitte wählen Sie ein anderes neues Passwort: {detail}.',
  'profile.email.changed':
    'Ihre Adresse ist jetzt {email}. Folgen Sie dem Link, den wir dorthin geschickt haben, um sie zu bestätigen.',
  'profile.email.taken': 'Ein anderes Konto verwendet diese Adresse.',
  'profile.email.check': 'Bitte prüfen Sie die neue Adresse: {detail}.',
  'profile.second_factor.off': 'Die Bestätigung in zwei Schritten ist ausgeschaltet.',
  'passkeys.added_notice': 'Passkey „{name}“ hinzugefügt.',
  'passkeys.removed_notice': 'Passkey „{name}“ entfernt.',
  'profile.about': 'Über Sie',
  'profile.claim.middle_name': 'Zweiter Vorname',
  'profile.claim.nickname': 'Spitzname',
  'profile.claim.preferred_username': 'Bevorzugter Benutzername',
  'profile.claim.website': 'Website',
  'profile.claim.gender': 'Geschlecht',
  'profile.claim.birthdate': 'Geburtsdatum',
  'profile.claim.zoneinfo': 'Zeitzone',
  'profile.claim.locale': 'Sprache',
  'profile.claim.phone_number': 'Telefonnummer',
  'profile.claim.picture': 'Bild-URL',
  'profile.claim.profile': 'URL der Profilseite',
  'profile.claim.street_address': 'Straße und Hausnummer',
  'profile.claim.locality': 'Ort',
  'profile.claim.region': 'Region oder Bundesland',
  'profile.claim.postal_code': 'Postleitzahl',
  'profile.claim.country': 'Land',

  'error.title': 'Fehler',
  'error.heading': 'Etwas stimmt nicht',
  'error.back': 'Gehen Sie zurück zur Anwendung, von der Sie kamen, und versuchen Sie es erneut.',
  'error.reference': 'Referenz:',
  'error.generic': 'Die Anfrage konnte nicht abgeschlossen werden.',
  'error.unavailable': 'Diese Seite ist vorübergehend nicht verfügbar. Versuchen Sie es gleich noch einmal.',
  'error.server': 'Bei uns ist etwas schiefgegangen.',
  'error.csrf': 'Dieses Formular ist abgelaufen. Laden Sie die Seite neu und versuchen Sie es erneut.',
  'situation.sign_in.request.expired': 'Dieser Anmeldelink ist abgelaufen oder wurde bereits verwendet.',
  'situation.federation.link.lost':
    'Dieser Browser hat das Cookie seiner Anmeldung nicht behalten. Melden Sie sich erneut an.',
  'situation.sign_up.closed': 'Diese Organisation bietet keine Registrierung an.',
  'error.request_invalid': 'Dieser Anmeldelink ist ungültig: {detail}.',
  'error.impersonation_closed':
    'Dieser Link zum Handeln als Benutzer ist abgelaufen oder wurde bereits verwendet. Starten Sie den Vorgang erneut.',

  'mail.button_fallback':
    'Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:',
  'mail.signature': '— {org}',
  'mail.reset.subject': 'Setzen Sie Ihr Passwort für {org} zurück',
  'mail.reset.asked':
    'Jemand (hoffentlich Sie) hat angefordert, das Passwort Ihres Kontos bei {org}, {email}, zurückzusetzen.',
  'mail.reset.validity':
    'Der Link unten funktioniert einmal, {minutes, plural, one {eine Minute} other {# Minuten}} lang. Ein neues Passwort meldet Sie überall ab.',
  'mail.reset.validity_hours':
    'Der Link unten funktioniert einmal, {hours, plural, one {eine Stunde} other {# Stunden}} lang. Ein neues Passwort meldet Sie überall ab.',
  'mail.reset.action': 'Neues Passwort wählen',
  'mail.reset.after':
    'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.',
  'mail.verify.subject': 'Bestätigen Sie Ihre E-Mail-Adresse für {org}',
  'mail.verify.asked': 'Bitte bestätigen Sie, dass {email} die Adresse Ihres Kontos bei {org} ist.',
  'mail.verify.validity':
    'Der Link unten funktioniert einmal, {minutes, plural, one {eine Minute} other {# Minuten}} lang.',
  'mail.verify.validity_hours':
    'Der Link unten funktioniert einmal, {hours, plural, one {eine Stunde} other {# Stunden}} lang.',
  'mail.verify.action': 'Diese Adresse bestätigen',
  'mail.verify.after':
    'Wenn Sie kein Konto erstellt und Ihre Adresse nicht geändert haben, ignorieren Sie diese E-Mail.',
  'mail.link.subject': 'Verknüpfen Sie Ihr Konto bei {org} mit {connection}',
  'mail.link.asked':
    'Jemand (hoffentlich Sie) hat sich mit {connection} als {email} angemeldet. Bei {org} gibt es bereits ein Konto für diese Adresse, aber die Adresse wurde nie bestätigt.',
  'mail.link.validity':
    'Der Link unten verknüpft dieses Konto mit {connection}. Er funktioniert einmal, {minutes, plural, one {eine Minute} other {# Minuten}} lang, in dem Browser, in dem Sie sich angemeldet haben. Die Verknüpfung meldet das Konto überall ab und entfernt sein Passwort, seine Passkeys und seinen zweiten Faktor: Danach melden Sie sich mit {connection} an.',
  'mail.link.action': 'Mit {connection} verknüpfen',
  'mail.link.after':
    'Wenn Sie sich nicht angemeldet haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.',
  'mail.changed.subject': 'Ihre E-Mail-Adresse bei {org} wurde geändert',
  'mail.changed.text': 'Die Adresse Ihres Kontos bei {org} wurde von {from} in {to} geändert.',
  'mail.changed.warning':
    'Wenn Sie das nicht waren, wenden Sie sich sofort an die Organisation: Jemand könnte Ihr Passwort kennen.',
  'mail.invite.subject': 'Sie sind zu {org} eingeladen',
  'mail.invite.subject_console': 'Sie sind eingeladen, {org} zu verwalten',
  'mail.invite.user': 'Sie ({email}) sind zu {org} eingeladen.',
  'mail.invite.owner':
    'Sie ({email}) sind eingeladen, {org} in der Tessera-Konsole als Inhaber zu verwalten.',
  'mail.invite.member':
    'Sie ({email}) sind eingeladen, {org} in der Tessera-Konsole als Mitglied zu verwalten.',
  'mail.invite.validity':
    'Der Link unten funktioniert einmal, {days, plural, one {einen Tag} other {# Tage}} lang. Mit einem bestehenden Konto melden Sie sich zum Annehmen an; andernfalls wählen Sie einen Namen und ein Passwort.',
  'mail.invite.action': 'Einladung annehmen',
  'mail.invite.after':
    'Wenn Sie das nicht erwartet haben, ignorieren Sie diese E-Mail: Ohne Sie passiert nichts.',
  'profile.check_form': 'Bitte prüfen Sie das Formular: {detail}.',
  'rule.input.email.invalid': 'die E-Mail-Adresse ist ungültig',
  'rule.input.password.too_short': 'das Passwort muss mindestens {min, number} Zeichen lang sein',
  'rule.input.password.too_long': 'das Passwort darf höchstens {max, number} Zeichen lang sein',
  'rule.input.name.length': 'ein Name ist leer oder zu lang',
  'rule.input.name.control_characters': 'ein Name darf keine Steuerzeichen enthalten',
  'rule.user.claim_url.invalid': 'eine Webadresse muss mit http:// oder https:// beginnen',
  'rule.user.birthdate.invalid': 'das Geburtsdatum muss ein echtes Datum sein, als JJJJ-MM-TT oder JJJJ',
  'rule.user.zoneinfo.invalid': 'die Zeitzone muss eine wie Europe/Berlin sein',
  'rule.user.locale.invalid': 'die Sprache muss ein Sprachkürzel wie de-AT sein',
  'rule.user.phone_number.invalid': 'die Telefonnummer muss international geschrieben sein, etwa +4930123456',
  'rule.user.address.too_long': 'eine Zeile der Anschrift ist zu lang',
  'passkeys.refused.expired': 'Diese Passkey-Anfrage ist abgelaufen. Versuchen Sie es erneut.',
  'passkeys.refused.unknown':
    'Dieser Passkey ist hier nicht registriert. Melden Sie sich mit Ihrem Passwort an oder verwenden Sie einen anderen Passkey.',
  'passkeys.refused.sign_in':
    'Mit diesem Passkey konnten Sie nicht angemeldet werden. Versuchen Sie es erneut oder melden Sie sich mit Ihrem Passwort an.',
  'passkeys.refused.register':
    'Dieser Passkey konnte nicht hinzugefügt werden. Versuchen Sie es erneut oder verwenden Sie einen anderen Passkey.',
  'passkeys.refused.duplicate': 'Dieser Passkey ist hier bereits registriert.',
  'passkeys.refused.name': 'Geben Sie dem Passkey einen Namen mit 1 bis {max, number} Zeichen.',
};
