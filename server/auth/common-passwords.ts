// Passwords that top every published leak list, lower-case, at least 8 characters (shorter ones fail
// the length rule anyway). Shipped with the code: the check never asks a network service. A
// password is also refused when it is one of these with digits or symbols added at either end
// ("Password2024!"), so the list holds the stems.
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  `
password passw0rd p@ssw0rd p@ssword pa55word pa55w0rd passwort motdepasse contrasena contraseña
password1 password12 password123 password1234 mypassword yourpassword newpassword oldpassword
letmein letmein1 welcome welcome1 welcome123 changeme changeme1 changeit default secret secret123
administrator admin123 admin1234 adminadmin rootroot root1234 toor1234 superuser sysadmin
qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 qwertz123 azerty123 asdfghjk asdfghjkl asdf1234
asdfasdf zxcvbnm zxcvbnm1 zxcvbnm123 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y 1qaz2wsx 1qaz2wsx3edc
zaq12wsx zaq1zaq1 qazwsx123 qazwsxedc q1w2e3r4 q1w2e3r4t5 1234qwer qwer1234 abcd1234 abc12345
abc123456 abcdefgh abcdefg1 a1b2c3d4 a1234567 aa123456 password! iloveyou iloveyou1 iloveyou2
trustno1 sunshine princess football baseball basketball superman batman spiderman starwars
whatever computer internet michelle jennifer jessica jordan23 michael1 charlie1 corvette
mercedes ferrari porsche master123 masterkey dragon12 monkey12 shadow12 blink182 liverpool
chelsea1 arsenal1 barcelona realmadrid manchester pokemon1 minecraft fortnite playstation
nintendo samsung1 iphone12 google123 facebook linkedin twitter1 instagram yahoo123 hotmail1
microsoft windows1 computer1 123456789 1234567890 12345678910 0123456789 0987654321 987654321
9876543210 11111111 111111111 1111111111 00000000 000000000 0000000000 12341234 12344321
11223344 112233445566 123123123 123321123 147258369 159357456 159753456 741852963 789456123
123456abc 123456789a 12345678a 1234567a 12qwaszx 123qweasd 123qweasdzxc qweasdzxc qweasd123
88888888 66666666 99999999 77777777 55555555 22222222 33333333 44444444 18atcskd2w 3rjs1la7qe
gwctlgwctl gatewaypassword gateway1 apikey123 openai123 anthropic claude123 chatgpt1
`
    .trim()
    .split(/\s+/),
);
