import type { Catalog } from './en.js';

/** Español. */
export const ES: Catalog = {
  'page.switcher.label': 'Idioma',
  'page.legal.label': 'Aviso legal',
  'page.terms': 'Términos del servicio',
  'page.privacy': 'Política de privacidad',
  'page.title': '{title} · {org}',

  'login.title': 'Iniciar sesión',
  'login.email': 'Correo electrónico',
  'login.password': 'Contraseña',
  'login.submit': 'Iniciar sesión',
  'login.forgot': '¿Olvidaste tu contraseña?',
  'login.new_here': '¿Eres nuevo?',
  'login.create_account': 'Crea una cuenta',
  'login.invalid': 'Correo electrónico o contraseña incorrectos.',
  'login.throttled':
    'Demasiados intentos de inicio de sesión. Vuelve a intentarlo en {minutes, plural, one {# minuto} other {# minutos}}.',
  'login.passkey.or': 'O, sin escribir nada:',
  'login.passkey.button': 'Iniciar sesión con una llave de acceso',
  'login.connection': 'Iniciar sesión con {connection}',
  'signed_in.title': 'Sesión iniciada',
  'signed_in.heading': 'Has iniciado sesión',
  'signed_in.as': 'Sesión iniciada como {email}.',
  'signed_in.close': 'Puedes cerrar esta página y volver a la aplicación.',

  'throttled.attempts':
    'Demasiados intentos. Vuelve a intentarlo en {minutes, plural, one {# minuto} other {# minutos}}.',
  'throttled.later': 'Demasiados intentos. Vuelve a intentarlo más tarde.',
  'throttled.mails':
    'Demasiados correos de confirmación. Vuelve a intentarlo en {minutes, plural, one {# minuto} other {# minutos}}.',
  'throttled.codes':
    'Demasiados códigos introducidos. Vuelve a intentarlo en {minutes, plural, one {# minuto} other {# minutos}}.',
  'throttled.links':
    'Demasiados enlaces solicitados. Vuelve a intentarlo en {minutes, plural, one {# minuto} other {# minutos}}.',
  'throttled.requests':
    'Demasiadas solicitudes para esta dirección. Vuelve a intentarlo en {minutes, plural, one {# minuto} other {# minutos}}.',

  'signup.title': 'Crea tu cuenta',
  'signup.first_name': 'Nombre',
  'signup.last_name': 'Apellidos',
  'signup.password': 'Contraseña (8 caracteres como mínimo)',
  'signup.password_again': 'Repite la contraseña',
  'signup.submit': 'Crear cuenta',
  'signup.domains': 'Abierto a direcciones de {domains}.',
  'signup.domains.mailed': 'Te enviaremos un enlace para elegir tu contraseña y terminar de crear tu cuenta.',
  'signup.send_link': 'Enviar el enlace',
  'signup.have_account': '¿Ya tienes una cuenta?',
  'signup.exists': 'Ya existe una cuenta con este correo electrónico. Inicia sesión.',
  'signup.refused': 'No puedes crear una cuenta aquí.',
  'signup.check_form': 'Revisa el formulario.',
  'signup.check_form.detail': 'Revisa el formulario: {detail}.',
  'signup.mismatch': 'Las dos contraseñas no coinciden.',
  'signup.closed.title': 'Se necesita una invitación',
  'signup.closed.invite_only':
    'Las cuentas de {org} solo se crean por invitación. Pide a la organización que te invite.',
  'signup.closed.domains': 'Solo las direcciones de {domains} pueden crear una cuenta aquí.',
  'signup.sent.title': 'Revisa tu correo',
  'signup.sent.notice':
    'Si con esta dirección se puede crear una cuenta aquí, va de camino un enlace para terminarla.',
  'signup.sent.validity':
    'El enlace funciona una sola vez, durante {hours, plural, one {# hora} other {# horas}}.',
  'signup.finish.title': 'Termina de crear tu cuenta',
  'signup.finish.for': 'Para {email}.',

  'consent.title': '¿Permitir el acceso?',
  'consent.wants': '{client} quiere usar tu cuenta {email}.',
  'consent.document_host': 'Se describe a sí misma en {host}; este servicio no sabe nada más de ella.',
  'consent.asks': 'Solicita:',
  'consent.asks_identity': 'Solicita saber quién eres.',
  'consent.resource': 'Usar {name} ({identifier}) en tu nombre',
  'consent.answer_to': 'Tu respuesta se envía de vuelta a {host}.',
  'consent.third_party':
    'Esta aplicación la registró un tercero, no la organización. Permítela solo si confías en ella.',
  'consent.allow': 'Permitir',
  'consent.deny': 'Denegar',
  'consent.choose': 'Elige Permitir o Denegar.',
  'scope.openid': 'Saber quién eres',
  'scope.profile': 'Ver tu nombre, tu foto y otros datos de tu perfil',
  'scope.email': 'Ver tu dirección de correo electrónico',
  'scope.address': 'Ver tu dirección postal',
  'scope.phone': 'Ver tu número de teléfono',
  'scope.offline_access': 'Mantener la sesión iniciada cuando no estés',
  'scope.org_read':
    'Ver tus organizaciones: su configuración, miembros, aplicaciones, usuarios, claves de firma y webhooks',
  'scope.events_read': 'Leer los eventos de auditoría de tus organizaciones',
  'scope.org_write':
    'Modificar tus organizaciones: crear, actualizar y eliminar configuración, miembros, aplicaciones, usuarios y webhooks, y renovar claves y secretos',
  'scope.users_impersonate': 'Iniciar sesión como los usuarios de tus organizaciones',

  'forgot.title': 'Contraseña olvidada',
  'forgot.heading': '¿Olvidaste tu contraseña?',
  'forgot.intro':
    'Introduce la dirección de tu cuenta. Te enviaremos un enlace para elegir una contraseña nueva.',
  'forgot.missing': 'Introduce la dirección de correo electrónico de tu cuenta.',
  'forgot.back': 'Volver a iniciar sesión',
  'forgot.sent.title': 'Revisa tu correo',
  'forgot.sent.notice':
    'Si alguna cuenta usa esa dirección, va de camino a ella un enlace para elegir una contraseña nueva.',
  'forgot.sent.validity':
    'El enlace funciona una sola vez, durante {minutes, plural, one {# minuto} other {# minutos}}. ¿No ha llegado nada? Revisa la carpeta de spam o vuelve a pedirlo dentro de unos minutos.',
  'reset.title': 'Elige una contraseña nueva',
  'reset.for': 'Para {email}. Al cambiarla se cerrará tu sesión en todas partes.',
  'reset.password': 'Contraseña nueva (8 caracteres como mínimo)',
  'reset.password_again': 'Repite la contraseña nueva',
  'reset.submit': 'Guardar la contraseña nueva',
  'reset.mismatch': 'Las dos contraseñas no coinciden. Escribe dos veces la misma contraseña nueva.',
  'reset.weak': 'Elige otra contraseña: {detail}.',
  'reset.done.title': 'Contraseña cambiada',
  'reset.done.heading': 'Tu contraseña se ha cambiado',
  'reset.done.notice': 'Se ha cerrado tu sesión en todas partes. Vuelve a iniciarla con tu contraseña nueva.',
  'link.closed.title': 'Enlace caducado',
  'link.closed.heading': 'Este enlace ya no funciona',
  'link.closed.reset': 'Este enlace para restablecer la contraseña ha caducado o ya se ha usado.',
  'link.closed.verification': 'Este enlace de confirmación ha caducado o ya se ha usado.',
  'link.closed.sign_up': 'Este enlace de registro ha caducado o ya se ha usado.',
  'link.closed.again': 'Pedir un enlace nuevo',
  'link.closed.profile': 'Pide un enlace nuevo desde tu página de perfil.',
  'verify.title': 'Confirma tu dirección',
  'verify.text': 'Confirma que {email} es la dirección de tu cuenta.',
  'verify.submit': 'Confirmar',
  'verified.title': 'Dirección confirmada',
  'verified.notice': '{email} está confirmada. Puedes cerrar esta página.',

  'second_factor.title': 'Verificación en dos pasos',
  'second_factor.challenge':
    'Introduce el código de 6 dígitos de tu aplicación de autenticación para {email}.',
  'second_factor.code': 'Código',
  'second_factor.verify': 'Verificar',
  'second_factor.recovery_hint':
    '¿No tienes acceso a tu aplicación? Introduce en su lugar uno de tus códigos de recuperación.',
  'second_factor.wrong_code': 'Ese código no es correcto. Revisa tu aplicación y vuelve a intentarlo.',
  'second_factor.expired': 'Tu inicio de sesión ha caducado. Vuelve a iniciar sesión.',
  'second_factor.setup.title': 'Configura la verificación en dos pasos',
  'second_factor.setup.required': '{org} pide a todo el mundo un segundo paso al iniciar sesión.',
  'second_factor.setup.chosen':
    'Cada inicio de sesión pedirá, después de tu contraseña, un código de una aplicación de tu teléfono.',
  'second_factor.setup.scan':
    '1. Escanea este código con una aplicación de autenticación (Google Authenticator, 1Password, Authy…).',
  'second_factor.setup.qr': 'Código QR para tu aplicación de autenticación',
  'second_factor.setup.key':
    '¿No puedes escanearlo? Introduce esta clave en la aplicación (basada en el tiempo, 6 dígitos):',
  'second_factor.setup.enter': '2. Introduce el código de 6 dígitos que muestra la aplicación.',
  'second_factor.setup.submit': 'Activar',
  'second_factor.codes.title': 'Guarda tus códigos de recuperación',
  'second_factor.on': 'La verificación en dos pasos está activada.',
  'second_factor.codes.text':
    'Si pierdes tu aplicación de autenticación, cada uno de estos códigos te permite iniciar sesión una vez. Solo se muestran ahora: anótalos o guárdalos en un gestor de contraseñas.',
  'second_factor.continue': 'Continuar',
  'second_factor.continue_to': 'Continuar a {client}',
  'second_factor.codes_left':
    '{count, plural, one {Te queda # código de recuperación.} other {Te quedan # códigos de recuperación.}}',
  'second_factor.required_on':
    'Tu organización exige la verificación en dos pasos, así que no se puede desactivar.',
  'second_factor.remove_code': 'Código de tu aplicación o código de recuperación',
  'second_factor.turn_off': 'Desactivar la verificación en dos pasos',
  'second_factor.back_to_profile': 'Volver a tu perfil',
  'second_factor.section.on': 'Activada.',
  'second_factor.section.manage': 'Gestionar',
  'second_factor.section.required': 'Tu organización exige la verificación en dos pasos.',
  'second_factor.section.off':
    'Desactivada. Añade a cada inicio de sesión un código de una aplicación de autenticación.',
  'second_factor.section.set_up': 'Configurar la verificación en dos pasos',

  'passkeys.title': 'Llaves de acceso',
  'passkeys.intro':
    'Inicia sesión con tu huella, tu cara o el bloqueo de pantalla en lugar de tu contraseña. Una llave de acceso cuenta como verificación en dos pasos.',
  'passkeys.none': 'Todavía no tienes llaves de acceso.',
  'passkeys.added': 'Añadida el {date, date, medium}',
  'passkeys.never_used': 'nunca usada',
  'passkeys.last_used': 'último uso el {date, date, medium}',
  'passkeys.synced': 'sincronizada',
  'passkeys.remove': 'Quitar',
  'passkeys.remove_label': 'Quitar la llave de acceso {name}',
  'passkeys.name': 'Nombre de la nueva llave de acceso',
  'passkeys.name_example': 'p. ej., portátil del trabajo',
  'passkeys.add': 'Añadir una llave de acceso',
  'passkeys.unsupported':
    'Para añadir una llave de acceso necesitas un navegador compatible con llaves de acceso y JavaScript activado.',
  'passkeys.full': 'Tienes todas las llaves de acceso que se pueden guardar. Quita una para añadir otra.',
  'passkeys.problem.generic': 'No ha funcionado. Vuelve a intentarlo o inicia sesión de otra forma.',
  'passkeys.problem.cancelled': 'La solicitud de la llave de acceso se canceló o caducó.',
  'passkeys.already_removed': 'Esa llave de acceso ya se había quitado.',

  'device.title': 'Conectar un dispositivo',
  'device.enter': 'Introduce el código que muestra tu dispositivo.',
  'device.code': 'Código',
  'device.continue': 'Continuar',
  'device.invalid_code':
    'Ese código no es válido o ha caducado. Revisa el código que muestra tu dispositivo y vuelve a intentarlo.',
  'device.confirm.title': '¿Permitir un dispositivo?',
  'device.confirm.asking': 'Un dispositivo solicita usar {client} con tu cuenta {email}.',
  'device.confirm.code': 'Muestra el código {code}.',
  'device.confirm.warning':
    'Permítelo solo si tú mismo empezaste a iniciar sesión en ese dispositivo y muestra este código. Si alguien te envió este código o un enlace a esta página, deniégalo.',
  'device.done.title': 'Dispositivo conectado',
  'device.done.notice':
    '{client} ha iniciado sesión en tu dispositivo. Puedes cerrar esta página y volver al dispositivo.',
  'device.denied.title': 'Solicitud denegada',
  'device.denied.notice': 'El dispositivo no ha obtenido acceso a {client}. Puedes cerrar esta página.',

  'invitation.join': 'Únete a {org}',
  'invitation.invited':
    'Te han invitado a ser {role, select, owner {propietario en la consola de} member {miembro en la consola de} other {usuario de}} {org} como {email}.',
  'invitation.invited_signed_in':
    'Te han invitado a ser {role, select, owner {propietario en la consola de} member {miembro en la consola de} other {usuario de}} {org}.',
  'invitation.new_here': 'Si eres nuevo',
  'invitation.new_here.text': 'Elige tu nombre y una contraseña para aceptar.',
  'invitation.create': 'Aceptar y crear mi cuenta',
  'invitation.have_account': '¿Tienes una cuenta con esta dirección?',
  'invitation.have_account.text': 'Inicia sesión para aceptar.',
  'invitation.sign_in': 'Iniciar sesión y aceptar',
  'invitation.signed_in_as': 'Has iniciado sesión como {email}.',
  'invitation.accept': 'Aceptar la invitación',
  'invitation.welcome': 'Te damos la bienvenida a {org}',
  'invitation.now':
    'Ahora eres {role, select, owner {propietario en la consola de} member {miembro en la consola de} other {usuario de}} {org}.',
  'invitation.open_console': 'Abrir la consola',
  'invitation.wrong_password': 'Contraseña incorrecta.',
  'invitation.has_account': 'Esta dirección ya tiene una cuenta: inicia sesión con ella para aceptar.',
  'invitation.check_form': 'Revisa el formulario: {detail}.',
  'invitation.to': 'Invitación a {org}',
  'invitation.accepted.title': 'Esta invitación ya se ha usado',
  'invitation.accepted.text':
    'Un enlace de invitación funciona una sola vez, y este ya se ha aceptado. Si fuiste tú, inicia sesión.',
  'invitation.expired.title': 'Esta invitación ha caducado',
  'invitation.expired.text':
    'Un enlace de invitación sirve durante 7 días, y este es más antiguo. Pide uno nuevo a quien te invitó.',
  'invitation.revoked.title': 'Esta invitación se ha retirado',
  'invitation.revoked.text':
    'La organización ha retirado esta invitación. Pregunta a quien te invitó si crees que es un error.',
  'invitation.unknown.title': 'Este enlace de invitación no es válido',
  'invitation.unknown.text':
    'Comprueba que abriste el enlace completo del correo o mensaje, o pide una nueva invitación.',

  'logout.title': '¿Cerrar sesión?',
  'logout.asks': '{client} solicita cerrar tu sesión.',
  'logout.signed_in_as': 'Has iniciado sesión como {email}.',
  'logout.submit': 'Cerrar sesión',
  'logout.not_you': 'Si no pediste cerrar sesión, cierra esta página: tu sesión sigue abierta.',
  'signed_out.title': 'Sesión cerrada',
  'signed_out.heading': 'Has cerrado sesión',
  'signed_out.text':
    'Este navegador ya no tiene la sesión iniciada aquí, y se ha cerrado la sesión de las aplicaciones en las que entraste a través de él.',
  'signed_out.frame': 'Cerrando sesión en una aplicación',
  'signed_out.close': 'Puedes cerrar esta página.',
  'signed_out.continue': 'Continuar',
  'sign_out.section': 'Cerrar sesión',
  'sign_out.section.text':
    'Cierra tu sesión en este navegador y en las aplicaciones que abriste a través de él.',

  'federation.continue.title': 'Iniciando sesión',
  'federation.continue.heading': 'Iniciando sesión…',
  'federation.continue': 'Continuar',
  'federation.link_sent.title': 'Confirma que la cuenta es tuya',
  'federation.link_sent.exists':
    'Ya existe aquí una cuenta para {email}, pero su dirección nunca se confirmó.',
  'federation.link_sent.notice':
    'Para iniciar sesión con {connection}, abre el enlace que enviamos a {email}, en este navegador, en un plazo de {minutes, plural, one {# minuto} other {# minutos}}.',
  'federation.link_sent.effect':
    'Al vincularla se cierra la sesión de esa cuenta en todas partes y se eliminan su contraseña, sus llaves de acceso y su segundo factor: a partir de entonces iniciarás sesión con {connection}.',
  'federation.link.title': 'Vincula tu cuenta a {connection}',
  'federation.link.text': 'A partir de ahora, inicia sesión en {email} con {connection}.',
  'federation.link.effect':
    'Todas las sesiones de esta cuenta terminan, y se eliminan su contraseña, sus llaves de acceso y su segundo factor.',
  'federation.link.submit': 'Vincular e iniciar sesión',

  'form_post.title': 'Volviendo a la aplicación',
  'form_post.heading': 'Volviendo a la aplicación…',
  'form_post.continue': 'Continuar',

  'profile.title': 'Tu perfil',
  'profile.saved': 'Guardado.',
  'profile.signed_in_as': 'Sesión iniciada como {email}',
  'profile.save': 'Guardar',
  'profile.link_closed':
    'Este enlace de perfil ha caducado o ya se ha usado. Vuelve a abrir tu perfil desde la aplicación.',
  'profile.expired': 'Esta página de perfil ha caducado. Vuelve a abrir tu perfil desde la aplicación.',
  'profile.email.title': 'Dirección de correo electrónico',
  'profile.email.confirmed': 'confirmada',
  'profile.email.not_confirmed': 'sin confirmar todavía',
  'profile.email.resend': 'Volver a enviar el enlace de confirmación',
  'profile.email.new': 'Dirección nueva',
  'profile.current_password': 'Contraseña actual',
  'profile.email.change': 'Cambiar la dirección',
  'profile.password.title': 'Contraseña',
  'profile.password.new': 'Contraseña nueva (8 caracteres como mínimo)',
  'profile.password.change': 'Cambiar la contraseña',
  'profile.password.effect':
    'Al cambiarla se cierra tu sesión en todas las demás partes; este navegador sigue con la sesión iniciada.',
  'profile.password.wrong': 'Tu contraseña actual no es correcta.',
  'profile.password.changed': 'Tu contraseña se ha cambiado. Se han cerrado tus otras sesiones.',
  'profile.password.weak': 'Elige otra contraseña nueva: {detail}.',
  'profile.email.changed':
    'Tu dirección ahora es {email}. Sigue el enlace que te enviamos allí para confirmarla.',
  'profile.email.taken': 'Otra cuenta usa esta dirección.',
  'profile.email.check': 'Revisa la dirección nueva: {detail}.',
  'profile.second_factor.off': 'La verificación en dos pasos está desactivada.',
  'passkeys.added_notice': 'Llave de acceso «{name}» añadida.',
  'passkeys.removed_notice': 'Llave de acceso «{name}» quitada.',
  'profile.about': 'Sobre ti',
  'profile.claim.middle_name': 'Segundo nombre',
  'profile.claim.nickname': 'Apodo',
  'profile.claim.preferred_username': 'Nombre de usuario preferido',
  'profile.claim.website': 'Sitio web',
  'profile.claim.gender': 'Género',
  'profile.claim.birthdate': 'Fecha de nacimiento',
  'profile.claim.zoneinfo': 'Zona horaria',
  'profile.claim.locale': 'Idioma',
  'profile.claim.phone_number': 'Número de teléfono',
  'profile.claim.picture': 'URL de la foto',
  'profile.claim.profile': 'URL de la página de perfil',
  'profile.claim.street_address': 'Calle y número',
  'profile.claim.locality': 'Ciudad',
  'profile.claim.region': 'Región o provincia',
  'profile.claim.postal_code': 'Código postal',
  'profile.claim.country': 'País',

  'error.title': 'Error',
  'error.heading': 'Algo no va bien',
  'error.back': 'Vuelve a la aplicación de la que venías e inténtalo de nuevo.',
  'error.reference': 'Referencia:',
  'error.generic': 'No se pudo completar la solicitud.',
  'error.unavailable':
    'Esta página no está disponible en este momento. Vuelve a intentarlo dentro de un momento.',
  'error.server': 'Algo ha fallado por nuestra parte.',
  'error.csrf': 'Este formulario ha caducado. Recarga la página y vuelve a intentarlo.',
  'situation.sign_in.request.expired': 'Este enlace de inicio de sesión ha caducado o ya se ha usado.',
  'situation.federation.link.lost':
    'Este navegador no ha conservado la cookie de su inicio de sesión. Vuelve a iniciar sesión.',
  'situation.sign_up.closed': 'Esta organización no ofrece registro.',
  'error.request_invalid': 'Este enlace de inicio de sesión no es válido: {detail}.',
  'error.impersonation_closed':
    'Este enlace de suplantación ha caducado o ya se ha usado. Vuelve a empezar la suplantación.',

  'mail.button_fallback': 'Si el botón no funciona, copia esta dirección en tu navegador:',
  'mail.signature': '— {org}',
  'mail.reset.subject': 'Restablece tu contraseña de {org}',
  'mail.reset.asked':
    'Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta de {org}, {email}.',
  'mail.reset.validity':
    'El enlace de abajo funciona una sola vez, durante {minutes, plural, one {# minuto} other {# minutos}}. Al elegir una contraseña nueva se cerrará tu sesión en todas partes.',
  'mail.reset.validity_hours':
    'El enlace de abajo funciona una sola vez, durante {hours, plural, one {# hora} other {# horas}}. Al elegir una contraseña nueva se cerrará tu sesión en todas partes.',
  'mail.reset.action': 'Elegir una contraseña nueva',
  'mail.reset.after': 'Si no lo pediste tú, ignora este correo: tu contraseña no cambia.',
  'mail.verify.subject': 'Confirma tu dirección de correo electrónico para {org}',
  'mail.verify.asked': 'Confirma que {email} es la dirección de tu cuenta de {org}.',
  'mail.verify.validity':
    'El enlace de abajo funciona una sola vez, durante {minutes, plural, one {# minuto} other {# minutos}}.',
  'mail.verify.validity_hours':
    'El enlace de abajo funciona una sola vez, durante {hours, plural, one {# hora} other {# horas}}.',
  'mail.verify.action': 'Confirmar esta dirección',
  'mail.verify.after': 'Si no creaste una cuenta ni cambiaste tu dirección, ignora este correo.',
  'mail.link.subject': 'Vincula tu cuenta de {org} a {connection}',
  'mail.link.asked':
    'Alguien (esperamos que tú) ha iniciado sesión con {connection} como {email}. Ya existe una cuenta en {org} para esta dirección, pero nunca se confirmó.',
  'mail.link.validity':
    'El enlace de abajo vincula esa cuenta a {connection}. Funciona una sola vez, durante {minutes, plural, one {# minuto} other {# minutos}}, en el navegador en el que iniciaste sesión. Al vincularla se cierra la sesión de la cuenta en todas partes y se eliminan su contraseña, sus llaves de acceso y su segundo factor: a partir de entonces iniciarás sesión con {connection}.',
  'mail.link.action': 'Vincular a {connection}',
  'mail.link.after': 'Si no iniciaste sesión, ignora este correo: no cambia nada.',
  'mail.changed.subject': 'Se ha cambiado tu dirección de correo electrónico de {org}',
  'mail.changed.text': 'La dirección de tu cuenta de {org} ha cambiado de {from} a {to}.',
  'mail.changed.warning':
    'Si no lo hiciste tú, ponte en contacto con la organización de inmediato: puede que alguien tenga tu contraseña.',
  'mail.invite.subject': 'Te han invitado a {org}',
  'mail.invite.subject_console': 'Te han invitado a gestionar {org}',
  'mail.invite.user': 'Te han invitado, como {email}, a unirte a {org}.',
  'mail.invite.owner':
    'Te han invitado, como {email}, a gestionar {org} en la consola de Tessera como propietario.',
  'mail.invite.member':
    'Te han invitado, como {email}, a gestionar {org} en la consola de Tessera como miembro.',
  'mail.invite.validity':
    'El enlace de abajo funciona una sola vez, durante {days, plural, one {# día} other {# días}}. Si ya tienes una cuenta, inicia sesión para aceptar; si no, elige un nombre y una contraseña.',
  'mail.invite.action': 'Aceptar la invitación',
  'mail.invite.after': 'Si no lo esperabas, ignora este correo: no pasará nada sin ti.',
  'profile.check_form': 'Revisa el formulario: {detail}.',
  'rule.input.email.invalid': 'la dirección de correo electrónico no es válida',
  'rule.input.password.too_short': 'la contraseña debe tener al menos {min, number} caracteres',
  'rule.input.password.too_long': 'la contraseña debe tener como máximo {max, number} caracteres',
  'rule.input.name.length': 'un nombre está vacío o es demasiado largo',
  'rule.input.name.control_characters': 'un nombre no puede contener caracteres de control',
  'rule.user.claim_url.invalid': 'una dirección web debe empezar por http:// o https://',
  'rule.user.birthdate.invalid': 'la fecha de nacimiento debe ser una fecha real, como AAAA-MM-DD o AAAA',
  'rule.user.zoneinfo.invalid': 'la zona horaria debe ser una como Europe/Madrid',
  'rule.user.locale.invalid': 'el idioma debe ser una etiqueta de idioma como es-MX',
  'rule.user.phone_number.invalid':
    'el número de teléfono debe estar en formato internacional, como +34912345678',
  'rule.user.address.too_long': 'una línea de la dirección es demasiado larga',
  'passkeys.refused.expired': 'Esta solicitud de llave de acceso ha caducado. Vuelve a intentarlo.',
  'passkeys.refused.unknown':
    'Esta llave de acceso no está registrada aquí. Inicia sesión con tu contraseña o usa otra llave de acceso.',
  'passkeys.refused.sign_in':
    'No se ha podido iniciar sesión con esta llave de acceso. Vuelve a intentarlo o inicia sesión con tu contraseña.',
  'passkeys.refused.register':
    'No se ha podido añadir esta llave de acceso. Vuelve a intentarlo o usa otra llave de acceso.',
  'passkeys.refused.duplicate': 'Esta llave de acceso ya está registrada aquí.',
  'passkeys.refused.name': 'Dale a la llave de acceso un nombre de 1 a {max, number} caracteres.',
};
