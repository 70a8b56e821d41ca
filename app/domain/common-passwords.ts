/*
 * Passwords that attackers try first (credential stuffing, password spraying). The shop
 * asks for 6 characters at least and the auth provider "reports weak passwords with reasons";
 * following NIST SP 800-63B we refuse the most common passwords rather than impose composition
 * rules. The list holds the most frequent entries of the public leak statistics (NCSC top list,
 * SecLists) plus the French favourites (azerty, motdepasse, soleil, first names, football clubs).
 * Entries are lower case without accents; passwords are compared the same way.
 */

/** Error code sent with the refusal; its French message lives in auth-errors.ts. */
export const COMMON_PASSWORD_CODE = 'PASSWORD_TOO_COMMON';

const LIST = `
123456 1234567 12345678 123456789 1234567890 0123456789 987654321 9876543210 654321 7654321
123123 123321 112233 121212 123654 147258 147258369 159753 159357 741852963 789456 789456123
456789 456123 321654 101010 111222 112358 131313 202020 212121 232323 123123123 123456123
000000 111111 222222 333333 444444 555555 666666 777777 888888 999999 0000000 1111111 11111111
00000000 12341234 12121212 11223344 123qwe qwe123 1q2w3e 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y
q1w2e3r4 q1w2e3r4t5 1qaz2wsx 1qazxsw2 zaq12wsx zaq1zaq1 1234qwer qwer1234 qwerty qwerty1
qwerty12 qwerty123 qwertyu qwertyui qwertyuiop qwert123 qazwsx qazwsxedc zxcvbn zxcvbnm
asdfgh asdfghjkl asdf1234 asdfasdf a123456 a1234567 a12345678 aa123456 aa12345678 abc123
abc1234 abc12345 abc123456 abcd1234 abcdef abcdefg abcdefgh 123abc 1234abcd 123456a
123456789a 12345abc password password1 password12 password123 password1234 passw0rd p4ssword
p@ssw0rd p@ssword pass123 pass1234 passpass passe123 iloveyou iloveyou1 iloveu princess
princess1 dragon dragon1 monkey monkey1 letmein letmein1 football football1 baseball
basketball sunshine shadow master master1 superman batman trustno1 welcome welcome1
welcome123 admin1 admin12 admin123 admin1234 administrator administrateur root123 login123
starwars whatever freedom michael jennifer jordan23 charlie daniel hunter hunter2 ranger
buster soccer hockey killer george computer michelle jessica pepper ginger joshua cheese
summer internet flower lovely loveme secret secret1 secret123 mustang access maggie chelsea
liverpool arsenal matrix pokemon naruto samsung google apple123 changeme changeme1 default
guest123 test123 test1234 testtest azertyuiop qsdfghjklm qsdfgh wxcvbn wxcvbn123 azerty
azerty1 azerty12 azerty123 azerty1234 azerty12345 azerty123456 azertyu azertyui azer1234
azer123 azerty01 aqwzsx aqwzsxedc motdepasse motdepasse1 motdepasse12 motdepasse123 mot2passe
mot2pass mdp123 mdp1234 mdp12345 monmotdepasse nouveaumotdepasse soleil soleil1 soleil12
soleil123 bonjour bonjour1 bonjour12 bonjour123 jetaime jetaime1 jetaime2 jetaime123 doudou
doudou1 doudou123 chouchou loulou loulou1 coucou coucou1 coucou123 nounours nounours1
chocolat chocolat1 marseille marseille13 olympique allezlom allezparis paris75 parisiens
toulouse bordeaux nantes lyon69 lille59 bretagne france france1 france123 vivelafrance
nicolas camille julien thomas alexandre antoine maxime sebastien stephanie isabelle nathalie
sandrine caroline aurelie celine pauline manon mathilde laurent philippe christophe frederic
pierre benjamin vincent romain quentin valentin jeremy guillaume clement florian kevin anthony
jerome olivier francois patrick michel jacques sophie emilie elodie juliette chloe nathan
virginie valerie christine catherine veronique sylvie martine monique dominique alexandra
princesse cheval chaton minette papillon tresor bisous bisous1 amour1 amour123 amoureux mamour
monamour mamie1 papa123 maman1 maman123 maison vacances voiture bouboule titou123 poupoune
poupette choupette doudoune cacahuete fraise framboise banane biscuit carotte tigrou tintin
asterix obelix snoopy mickey pikachu dragonball anniversaire famille bienvenue salut123
merci123 liberte chance bonheur musique guitare ordinateur tequiero ninja123 hello123 hello1
soovenirs soovenirs1 soovenirs123 souvenir souvenirs souvenirs1 souvenirs123 photos photo123
`;

const COMMON = new Set(LIST.split(/\s+/).filter(Boolean));

/** Lower case, accents removed: "Sébastien" and "SEBASTIEN" are the same guess. */
function normalise(password: string): string {
  return password
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

const DIGITS = '01234567890';
const DIGITS_DOWN = '09876543210';

/**
 * True when the password is one of the most common ones, possibly with a short suffix of digits or
 * punctuation ("Soleil2024!", "nicolas1987"), a single repeated character, or a run of digits.
 */
export function isCommonPassword(password: string): boolean {
  const p = normalise(password);
  if (COMMON.has(p)) return true;
  if (p.length > 0 && p.split('').every((c) => c === p[0])) return true;
  if (p.length >= 6 && /^\d+$/.test(p) && (DIGITS.includes(p) || DIGITS_DOWN.includes(p))) return true;
  // A common word with up to five digits or symbols added (a year, "2024!", "123").
  const match = /^(.*?)[\d\W_]{1,5}$/.exec(p);
  const base = match?.[1];
  return base !== undefined && base.length >= 4 && COMMON.has(base);
}

/** The number of entries in the list (for documentation and tests). */
export function commonPasswordCount(): number {
  return COMMON.size;
}
