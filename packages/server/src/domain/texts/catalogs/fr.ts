import type { Catalog } from './en.js';

/** Français. */
export const FR: Catalog = {
  'page.switcher.label': 'Langue',
  'page.legal.label': 'Mentions légales',
  'page.terms': 'Conditions d’utilisation',
  'page.privacy': 'Politique de confidentialité',
  'page.title': '{title} · {org}',

  'login.title': 'Connexion',
  'login.email': 'Adresse e-mail',
  'login.password': 'Mot de passe',
  'login.submit': 'Se connecter',
  'login.forgot': 'Mot de passe oublié ?',
  'login.new_here': 'Nouveau ici ?',
  'login.create_account': 'Créer un compte',
  'login.invalid': 'Adresse e-mail ou mot de passe incorrect.',
  'login.throttled':
    'Trop de tentatives de connexion. Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.',
  'login.passkey.or': 'Ou, sans rien saisir :',
  'login.passkey.button': 'Se connecter avec une clé d’accès',
  'login.connection': 'Se connecter avec {connection}',
  'signed_in.title': 'Connecté',
  'signed_in.heading': 'Vous êtes connecté',
  'signed_in.as': 'Connecté en tant que {email}.',
  'signed_in.close': 'Vous pouvez fermer cette page et revenir à l’application.',

  'throttled.attempts':
    'Trop de tentatives. Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.',
  'throttled.later': 'Trop de tentatives. Réessayez plus tard.',
  'throttled.mails':
    'Trop d’e-mails de confirmation. Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.',
  'throttled.codes':
    'Trop de codes saisis. Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.',
  'throttled.links':
    'Trop de liens demandés. Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.',
  'throttled.requests':
    'Trop de demandes pour cette adresse. Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.',

  'signup.title': 'Créez votre compte',
  'signup.first_name': 'Prénom',
  'signup.last_name': 'Nom',
  'signup.password': 'Mot de passe (8 caractères au moins)',
  'signup.password_again': 'Confirmez le mot de passe',
  'signup.submit': 'Créer le compte',
  'signup.domains': 'Ouvert aux adresses en {domains}.',
  'signup.domains.mailed':
    'Nous vous enverrons un lien pour choisir votre mot de passe et finaliser votre compte.',
  'signup.send_link': 'Envoyer le lien',
  'signup.have_account': 'Vous avez déjà un compte ?',
  'signup.exists': 'Un compte existe déjà avec cette adresse e-mail. Connectez-vous plutôt.',
  'signup.refused': 'Vous ne pouvez pas créer de compte ici.',
  'signup.check_form': 'Veuillez vérifier le formulaire.',
  'signup.check_form.detail': 'Veuillez vérifier le formulaire : {detail}.',
  'signup.mismatch': 'Les deux mots de passe sont différents.',
  'signup.closed.title': 'Invitation nécessaire',
  'signup.closed.invite_only':
    'Les comptes de {org} sont créés uniquement sur invitation. Demandez à l’organisation de vous inviter.',
  'signup.closed.domains': 'Seules les adresses en {domains} peuvent créer un compte ici.',
  'signup.sent.title': 'Consultez vos e-mails',
  'signup.sent.notice': 'Si cette adresse peut créer un compte ici, un lien pour le finaliser est en route.',
  'signup.sent.validity':
    'Le lien ne fonctionne qu’une fois, pendant {hours, plural, one {# heure} other {# heures}}.',
  'signup.finish.title': 'Finalisez votre compte',
  'signup.finish.for': 'Pour {email}.',

  'consent.title': 'Autoriser l’accès ?',
  'consent.wants': '{client} souhaite utiliser votre compte {email}.',
  'consent.document_host':
    'L’application se décrit elle-même sur {host} ; ce service n’en sait pas davantage.',
  'consent.asks': 'Elle demande à :',
  'consent.asks_identity': 'Elle demande à savoir qui vous êtes.',
  'consent.resource': 'Utiliser {name} ({identifier}) en votre nom',
  'consent.answer_to': 'Votre réponse est renvoyée à {host}.',
  'consent.third_party':
    'Cette application a été enregistrée par un tiers, et non par l’organisation. Ne l’autorisez que si vous lui faites confiance.',
  'consent.allow': 'Autoriser',
  'consent.deny': 'Refuser',
  'consent.choose': 'Choisissez Autoriser ou Refuser.',
  'scope.openid': 'Savoir qui vous êtes',
  'scope.profile': 'Voir votre nom, votre photo et les autres informations de votre profil',
  'scope.email': 'Voir votre adresse e-mail',
  'scope.address': 'Voir votre adresse postale',
  'scope.phone': 'Voir votre numéro de téléphone',
  'scope.offline_access': 'Rester connecté en votre absence',
  'scope.org_read':
    'Voir vos organisations : leurs paramètres, membres, applications, utilisateurs, clés de signature et webhooks',
  'scope.events_read': 'Lire les événements d’audit de vos organisations',
  'scope.org_write':
    'Modifier vos organisations : créer, modifier et supprimer paramètres, membres, applications, utilisateurs et webhooks, et renouveler clés et secrets',
  'scope.users_impersonate': 'Se connecter en tant qu’utilisateur de vos organisations',

  'forgot.title': 'Mot de passe oublié',
  'forgot.heading': 'Mot de passe oublié ?',
  'forgot.intro':
    'Saisissez l’adresse de votre compte. Nous vous enverrons un lien pour choisir un nouveau mot de passe.',
  'forgot.missing': 'Veuillez saisir l’adresse e-mail de votre compte.',
  'forgot.back': 'Retour à la connexion',
  'forgot.sent.title': 'Consultez vos e-mails',
  'forgot.sent.notice':
    'Si un compte utilise cette adresse, un lien pour choisir un nouveau mot de passe y est en route.',
  'forgot.sent.validity':
    'Le lien ne fonctionne qu’une fois, pendant {minutes, plural, one {# minute} other {# minutes}}. Rien reçu ? Vérifiez vos courriers indésirables ou redemandez-le dans quelques minutes.',
  'reset.title': 'Choisissez un nouveau mot de passe',
  'reset.for': 'Pour {email}. Le changer vous déconnecte partout.',
  'reset.password': 'Nouveau mot de passe (8 caractères au moins)',
  'reset.password_again': 'Confirmez le nouveau mot de passe',
  'reset.submit': 'Enregistrer le nouveau mot de passe',
  'reset.mismatch':
    'Les deux mots de passe sont différents. Saisissez deux fois le même nouveau mot de passe.',
  'reset.weak': 'Veuillez choisir un autre mot de passe : {detail}.',
  'reset.done.title': 'Mot de passe modifié',
  'reset.done.heading': 'Votre mot de passe est modifié',
  'reset.done.notice': 'Vous avez été déconnecté partout. Reconnectez-vous avec votre nouveau mot de passe.',
  'link.closed.title': 'Lien expiré',
  'link.closed.heading': 'Ce lien ne fonctionne plus',
  'link.closed.reset': 'Ce lien de réinitialisation du mot de passe a expiré ou a déjà été utilisé.',
  'link.closed.verification': 'Ce lien de confirmation a expiré ou a déjà été utilisé.',
  'link.closed.sign_up': 'Ce lien d’inscription a expiré ou a déjà été utilisé.',
  'link.closed.again': 'Demander un nouveau lien',
  'link.closed.profile': 'Demandez un nouveau lien depuis votre page de profil.',
  'verify.title': 'Confirmez votre adresse',
  'verify.text': 'Confirmez que {email} est l’adresse de votre compte.',
  'verify.submit': 'Confirmer',
  'verified.title': 'Adresse confirmée',
  'verified.notice': '{email} est confirmée. Vous pouvez fermer cette page.',

  'second_factor.title': 'Validation en deux étapes',
  'second_factor.challenge':
    'Saisissez le code à 6 chiffres de votre application d’authentification pour {email}.',
  'second_factor.code': 'Code',
  'second_factor.verify': 'Valider',
  'second_factor.recovery_hint':
    'Pas d’accès à votre application ? Saisissez plutôt l’un de vos codes de récupération.',
  'second_factor.wrong_code': 'Ce code est incorrect. Vérifiez votre application et réessayez.',
  'second_factor.expired': 'Votre connexion a expiré. Reconnectez-vous.',
  'second_factor.setup.title': 'Configurer la validation en deux étapes',
  'second_factor.setup.required': '{org} demande à chacun une deuxième étape à la connexion.',
  'second_factor.setup.chosen':
    'Chaque connexion demandera, après votre mot de passe, un code d’une application sur votre téléphone.',
  'second_factor.setup.scan':
    '1. Scannez ce code avec une application d’authentification (Google Authenticator, 1Password, Authy…).',
  'second_factor.setup.qr': 'Code QR pour votre application d’authentification',
  'second_factor.setup.key':
    'Impossible de le scanner ? Saisissez cette clé dans l’application (basée sur le temps, 6 chiffres) :',
  'second_factor.setup.enter': '2. Saisissez le code à 6 chiffres affiché par l’application.',
  'second_factor.setup.submit': 'Activer',
  'second_factor.codes.title': 'Conservez vos codes de récupération',
  'second_factor.on': 'La validation en deux étapes est activée.',
  'second_factor.codes.text':
    'Si vous perdez votre application d’authentification, chacun de ces codes vous connecte une fois. Ils ne s’affichent que maintenant : notez-les ou gardez-les dans un gestionnaire de mots de passe.',
  'second_factor.continue': 'Continuer',
  'second_factor.continue_to': 'Continuer vers {client}',
  'second_factor.codes_left':
    '{count, plural, one {Il vous reste # code de récupération.} other {Il vous reste # codes de récupération.}}',
  'second_factor.required_on':
    'Votre organisation exige la validation en deux étapes ; elle ne peut donc pas être désactivée.',
  'second_factor.remove_code': 'Code de votre application, ou code de récupération',
  'second_factor.turn_off': 'Désactiver la validation en deux étapes',
  'second_factor.back_to_profile': 'Retour à votre profil',
  'second_factor.section.on': 'Activée.',
  'second_factor.section.manage': 'Gérer',
  'second_factor.section.required': 'Votre organisation exige la validation en deux étapes.',
  'second_factor.section.off':
    'Désactivée. Ajoutez à chaque connexion un code provenant d’une application d’authentification.',
  'second_factor.section.set_up': 'Configurer la validation en deux étapes',

  'passkeys.title': 'Clés d’accès',
  'passkeys.intro':
    'Connectez-vous avec votre empreinte, votre visage ou le verrouillage de l’écran au lieu de votre mot de passe. Une clé d’accès vaut validation en deux étapes.',
  'passkeys.none': 'Vous n’avez pas encore de clé d’accès.',
  'passkeys.added': 'Ajoutée le {date, date, medium}',
  'passkeys.never_used': 'jamais utilisée',
  'passkeys.last_used': 'dernière utilisation le {date, date, medium}',
  'passkeys.synced': 'synchronisée',
  'passkeys.remove': 'Supprimer',
  'passkeys.remove_label': 'Supprimer la clé d’accès {name}',
  'passkeys.name': 'Nom de la nouvelle clé d’accès',
  'passkeys.name_example': 'p. ex. Ordinateur du bureau',
  'passkeys.add': 'Ajouter une clé d’accès',
  'passkeys.unsupported':
    'Pour ajouter une clé d’accès, il faut un navigateur qui prend en charge les clés d’accès, avec JavaScript activé.',
  'passkeys.full':
    'Vous avez autant de clés d’accès que possible. Supprimez-en une pour en ajouter une autre.',
  'passkeys.problem.generic': 'Cela n’a pas fonctionné. Réessayez, ou connectez-vous autrement.',
  'passkeys.problem.cancelled': 'La demande de clé d’accès a été annulée ou a expiré.',
  'passkeys.already_removed': 'Cette clé d’accès a déjà été supprimée.',

  'device.title': 'Connecter un appareil',
  'device.enter': 'Saisissez le code affiché par votre appareil.',
  'device.code': 'Code',
  'device.continue': 'Continuer',
  'device.invalid_code':
    'Ce code n’est pas valide ou a expiré. Vérifiez le code affiché par votre appareil et réessayez.',
  'device.confirm.title': 'Autoriser un appareil ?',
  'device.confirm.asking': 'Un appareil demande à utiliser {client} avec votre compte {email}.',
  'device.confirm.code': 'Il affiche le code {code}.',
  'device.confirm.warning':
    'N’autorisez que si vous avez vous-même lancé la connexion sur cet appareil et qu’il affiche ce code. Si quelqu’un vous a envoyé ce code ou un lien vers cette page, refusez.',
  'device.done.title': 'Appareil connecté',
  'device.done.notice':
    '{client} est connecté sur votre appareil. Vous pouvez fermer cette page et revenir à l’appareil.',
  'device.denied.title': 'Demande refusée',
  'device.denied.notice': 'L’appareil n’a pas reçu l’accès à {client}. Vous pouvez fermer cette page.',

  'invitation.join': 'Rejoindre {org}',
  'invitation.invited':
    'Vous êtes invité à devenir {role, select, owner {propriétaire dans la console de} member {membre dans la console de} other {utilisateur de}} {org} en tant que {email}.',
  'invitation.invited_signed_in':
    'Vous êtes invité à devenir {role, select, owner {propriétaire dans la console de} member {membre dans la console de} other {utilisateur de}} {org}.',
  'invitation.new_here': 'Nouveau ici',
  'invitation.new_here.text': 'Choisissez votre nom et un mot de passe pour accepter.',
  'invitation.create': 'Accepter et créer mon compte',
  'invitation.have_account': 'Vous avez un compte avec cette adresse ?',
  'invitation.have_account.text': 'Connectez-vous pour accepter.',
  'invitation.sign_in': 'Se connecter et accepter',
  'invitation.signed_in_as': 'Vous êtes connecté en tant que {email}.',
  'invitation.accept': 'Accepter l’invitation',
  'invitation.welcome': 'Bienvenue chez {org}',
  'invitation.now':
    'Vous êtes désormais {role, select, owner {propriétaire dans la console de} member {membre dans la console de} other {utilisateur de}} {org}.',
  'invitation.open_console': 'Ouvrir la console',
  'invitation.wrong_password': 'Mot de passe incorrect.',
  'invitation.has_account': 'Cette adresse a déjà un compte : connectez-vous avec lui pour accepter.',
  'invitation.check_form': 'Veuillez vérifier le formulaire : {detail}.',
  'invitation.to': 'Invitation à {org}',
  'invitation.accepted.title': 'Cette invitation a déjà été utilisée',
  'invitation.accepted.text':
    'Un lien d’invitation ne fonctionne qu’une fois, et celui-ci a déjà été accepté. Si c’était vous, connectez-vous.',
  'invitation.expired.title': 'Cette invitation a expiré',
  'invitation.expired.text':
    'Un lien d’invitation est valable 7 jours, et celui-ci est plus ancien. Demandez-en un nouveau à la personne qui vous a invité.',
  'invitation.revoked.title': 'Cette invitation a été retirée',
  'invitation.revoked.text':
    'L’organisation a retiré cette invitation. Contactez la personne qui vous a invité si vous pensez qu’il s’agit d’une erreur.',
  'invitation.unknown.title': 'Ce lien d’invitation n’est pas valide',
  'invitation.unknown.text':
    'Vérifiez que vous avez ouvert le lien complet de l’e-mail ou du message, ou demandez une nouvelle invitation.',

  'logout.title': 'Se déconnecter ?',
  'logout.asks': '{client} demande à vous déconnecter.',
  'logout.signed_in_as': 'Vous êtes connecté en tant que {email}.',
  'logout.submit': 'Se déconnecter',
  'logout.not_you':
    'Si vous n’avez pas demandé à vous déconnecter, fermez cette page : vous restez connecté.',
  'signed_out.title': 'Déconnecté',
  'signed_out.heading': 'Vous êtes déconnecté',
  'signed_out.text':
    'Ce navigateur n’est plus connecté ici, et les applications auxquelles vous vous êtes connecté par son intermédiaire ont été déconnectées.',
  'signed_out.frame': 'Déconnexion d’une application',
  'signed_out.close': 'Vous pouvez fermer cette page.',
  'signed_out.continue': 'Continuer',
  'sign_out.section': 'Déconnexion',
  'sign_out.section.text':
    'Met fin à votre connexion dans ce navigateur et dans les applications que vous avez ouvertes par son intermédiaire.',

  'federation.continue.title': 'Connexion en cours',
  'federation.continue.heading': 'Connexion en cours…',
  'federation.continue': 'Continuer',
  'federation.link_sent.title': 'Confirmez qu’il s’agit de votre compte',
  'federation.link_sent.exists':
    'Un compte existe déjà ici pour {email}, mais son adresse n’a jamais été confirmée.',
  'federation.link_sent.notice':
    'Pour vous connecter avec {connection}, ouvrez le lien envoyé à {email}, dans ce navigateur, d’ici {minutes, plural, one {# minute} other {# minutes}}.',
  'federation.link_sent.effect':
    'L’association déconnecte ce compte partout et supprime son mot de passe, ses clés d’accès et son deuxième facteur : vous vous connecterez ensuite avec {connection}.',
  'federation.link.title': 'Associer votre compte à {connection}',
  'federation.link.text': 'Connectez-vous désormais à {email} avec {connection}.',
  'federation.link.effect':
    'Toutes les sessions de ce compte prennent fin, et son mot de passe, ses clés d’accès et son deuxième facteur sont supprimés.',
  'federation.link.submit': 'Associer et se connecter',

  'form_post.title': 'Retour à l’application',
  'form_post.heading': 'Retour à l’application…',
  'form_post.continue': 'Continuer',

  'profile.title': 'Votre profil',
  'profile.saved': 'Enregistré.',
  'profile.signed_in_as': 'Connecté en tant que {email}',
  'profile.save': 'Enregistrer',
  'profile.link_closed':
    'Ce lien de profil a expiré ou a déjà été utilisé. Rouvrez votre profil depuis l’application.',
  'profile.expired': 'Cette page de profil a expiré. Rouvrez votre profil depuis l’application.',
  'profile.email.title': 'Adresse e-mail',
  'profile.email.confirmed': 'confirmée',
  'profile.email.not_confirmed': 'pas encore confirmée',
  'profile.email.resend': 'Renvoyer le lien de confirmation',
  'profile.email.new': 'Nouvelle adresse',
  'profile.current_password': 'Mot de passe actuel',
  'profile.email.change': 'Changer d’adresse',
  'profile.password.title': 'Mot de passe',
  'profile.password.new': 'Nouveau mot de passe (8 caractères au moins)',
  'profile.password.change': 'Changer le mot de passe',
  'profile.password.effect': 'Le changer vous déconnecte partout ailleurs ; ce navigateur reste connecté.',
  'profile.password.wrong': 'Votre mot de passe actuel est incorrect.',
  'profile.password.changed': 'Votre mot de passe est modifié. Vos autres sessions ont été déconnectées.',
  'profile.password.weak': 'Veuillez choisir un autre nouveau mot de passe : {detail}.',
  'profile.email.changed':
    'Votre adresse est désormais {email}. Suivez le lien que nous y avons envoyé pour la confirmer.',
  'profile.email.taken': 'Un autre compte utilise cette adresse.',
  'profile.email.check': 'Veuillez vérifier la nouvelle adresse : {detail}.',
  'profile.second_factor.off': 'La validation en deux étapes est désactivée.',
  'passkeys.added_notice': 'Clé d’accès « {name} » ajoutée.',
  'passkeys.removed_notice': 'Clé d’accès « {name} » supprimée.',
  'profile.about': 'À propos de vous',
  'profile.claim.middle_name': 'Deuxième prénom',
  'profile.claim.nickname': 'Surnom',
  'profile.claim.preferred_username': 'Nom d’utilisateur préféré',
  'profile.claim.website': 'Site web',
  'profile.claim.gender': 'Genre',
  'profile.claim.birthdate': 'Date de naissance',
  'profile.claim.zoneinfo': 'Fuseau horaire',
  'profile.claim.locale': 'Langue',
  'profile.claim.phone_number': 'Numéro de téléphone',
  'profile.claim.picture': 'URL de la photo',
  'profile.claim.profile': 'URL de la page de profil',
  'profile.claim.street_address': 'Adresse (rue)',
  'profile.claim.locality': 'Ville',
  'profile.claim.region': 'Région ou État',
  'profile.claim.postal_code': 'Code postal',
  'profile.claim.country': 'Pays',

  'error.title': 'Erreur',
  'error.heading': 'Quelque chose ne va pas',
  'error.back': 'Revenez à l’application d’où vous venez et réessayez.',
  'error.reference': 'Référence :',
  'error.generic': 'La demande n’a pas pu aboutir.',
  'error.unavailable': 'Cette page est momentanément indisponible. Réessayez dans un instant.',
  'error.server': 'Un problème est survenu de notre côté.',
  'error.csrf': 'Ce formulaire a expiré. Rechargez la page et réessayez.',
  'situation.sign_in.request.expired': 'Ce lien de connexion a expiré ou a déjà été utilisé.',
  'situation.federation.link.lost':
    'Ce navigateur n’a pas conservé le cookie de sa connexion. Reconnectez-vous.',
  'situation.sign_up.closed': 'Cette organisation ne propose pas d’inscription.',
  'error.request_invalid': 'Ce lien de connexion n’est pas valide : {detail}.',
  'error.impersonation_closed':
    'Ce lien d’emprunt d’identité a expiré ou a déjà été utilisé. Recommencez l’opération.',

  'mail.button_fallback': 'Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :',
  'mail.signature': '— {org}',
  'mail.reset.subject': 'Réinitialisez votre mot de passe {org}',
  'mail.reset.asked':
    'Quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte {org}, {email}.',
  'mail.reset.validity':
    'Le lien ci-dessous ne fonctionne qu’une fois, pendant {minutes, plural, one {# minute} other {# minutes}}. Choisir un nouveau mot de passe vous déconnecte partout.',
  'mail.reset.validity_hours':
    'Le lien ci-dessous ne fonctionne qu’une fois, pendant {hours, plural, one {# heure} other {# heures}}. Choisir un nouveau mot de passe vous déconnecte partout.',
  'mail.reset.action': 'Choisir un nouveau mot de passe',
  'mail.reset.after':
    'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.',
  'mail.verify.subject': 'Confirmez votre adresse e-mail pour {org}',
  'mail.verify.asked': 'Veuillez confirmer que {email} est l’adresse de votre compte {org}.',
  'mail.verify.validity':
    'Le lien ci-dessous ne fonctionne qu’une fois, pendant {minutes, plural, one {# minute} other {# minutes}}.',
  'mail.verify.validity_hours':
    'Le lien ci-dessous ne fonctionne qu’une fois, pendant {hours, plural, one {# heure} other {# heures}}.',
  'mail.verify.action': 'Confirmer cette adresse',
  'mail.verify.after': 'Si vous n’avez pas créé de compte ni changé d’adresse, ignorez cet e-mail.',
  'mail.link.subject': 'Associez votre compte {org} à {connection}',
  'mail.link.asked':
    'Quelqu’un (vous, espérons-le) s’est connecté avec {connection} en tant que {email}. Un compte existe déjà chez {org} pour cette adresse, mais celle-ci n’a jamais été confirmée.',
  'mail.link.validity':
    'Le lien ci-dessous associe ce compte à {connection}. Il ne fonctionne qu’une fois, pendant {minutes, plural, one {# minute} other {# minutes}}, dans le navigateur où vous vous êtes connecté. L’association déconnecte le compte partout et supprime son mot de passe, ses clés d’accès et son deuxième facteur : vous vous connecterez ensuite avec {connection}.',
  'mail.link.action': 'Associer à {connection}',
  'mail.link.after': 'Si vous ne vous êtes pas connecté, ignorez cet e-mail : rien ne change.',
  'mail.changed.subject': 'L’adresse e-mail de votre compte {org} a été modifiée',
  'mail.changed.text': 'L’adresse de votre compte {org} est passée de {from} à {to}.',
  'mail.changed.warning':
    'Si ce n’est pas vous, contactez immédiatement l’organisation : quelqu’un connaît peut-être votre mot de passe.',
  'mail.invite.subject': 'Vous êtes invité à rejoindre {org}',
  'mail.invite.subject_console': 'Vous êtes invité à gérer {org}',
  'mail.invite.user': 'Vous ({email}) êtes invité à rejoindre {org}.',
  'mail.invite.owner':
    'Vous ({email}) êtes invité à gérer {org} dans la console Tessera, en tant que propriétaire.',
  'mail.invite.member':
    'Vous ({email}) êtes invité à gérer {org} dans la console Tessera, en tant que membre.',
  'mail.invite.validity':
    'Le lien ci-dessous ne fonctionne qu’une fois, pendant {days, plural, one {# jour} other {# jours}}. Si vous avez déjà un compte, connectez-vous pour accepter ; sinon, choisissez un nom et un mot de passe.',
  'mail.invite.action': 'Accepter l’invitation',
  'mail.invite.after': 'Si vous ne vous y attendiez pas, ignorez cet e-mail : rien ne se passe sans vous.',
  'profile.check_form': 'Veuillez vérifier le formulaire : {detail}.',
  'rule.input.email.invalid': 'l’adresse e-mail n’est pas valide',
  'rule.input.password.too_short': 'le mot de passe doit compter au moins {min, number} caractères',
  'rule.input.password.too_long': 'le mot de passe doit compter au plus {max, number} caractères',
  'rule.input.name.length': 'un nom est vide ou trop long',
  'rule.input.name.control_characters': 'un nom ne doit pas contenir de caractères de contrôle',
  'rule.user.claim_url.invalid': 'une adresse web doit commencer par http:// ou https://',
  'rule.user.birthdate.invalid':
    'la date de naissance doit être une vraie date, au format AAAA-MM-JJ ou AAAA',
  'rule.user.zoneinfo.invalid': 'le fuseau horaire doit être de la forme Europe/Paris',
  'rule.user.locale.invalid': 'la langue doit être une étiquette de langue comme fr-CA',
  'rule.user.phone_number.invalid':
    'le numéro de téléphone doit être au format international, comme +33123456789',
  'rule.user.address.too_long': 'une ligne de l’adresse est trop longue',
  'passkeys.refused.expired': 'Cette demande de clé d’accès a expiré. Réessayez.',
  'passkeys.refused.unknown':
    'Cette clé d’accès n’est pas enregistrée ici. Connectez-vous avec votre mot de passe, ou utilisez une autre clé d’accès.',
  'passkeys.refused.sign_in':
    'Cette clé d’accès n’a pas pu vous connecter. Réessayez, ou connectez-vous avec votre mot de passe.',
  'passkeys.refused.register':
    'Cette clé d’accès n’a pas pu être ajoutée. Réessayez, ou utilisez une autre clé d’accès.',
  'passkeys.refused.duplicate': 'Cette clé d’accès est déjà enregistrée ici.',
  'passkeys.refused.name': 'Donnez à la clé d’accès un nom de 1 à {max, number} caractères.',
};
