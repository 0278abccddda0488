import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';

const facts = (text: string, role: 'user' | 'assistant' = 'user') => factsFrom('en.profile.fact', text, role);
const SINCE = '2026-02-18';

describe('English profile facts said in passing', () => {
  it.each([
    [
      "I'm a dental hygienist here in Leeds, long day.",
      [
        { k: 'role', v: 'dental hygienist' },
        { k: 'location', v: 'Leeds' },
      ],
    ],
    [
      'senior product designer at Zalando, start in May!',
      [
        { k: 'role', v: 'senior product designer', since: SINCE },
        { k: 'employer', v: 'Zalando', since: SINCE },
      ],
    ],
    ["I'm lead mechanic now, the old boss retired.", [{ k: 'role', v: 'lead mechanic', since: SINCE }]],
    ['I teach chemistry at a sixth form college.', [{ k: 'role', v: 'teaches chemistry' }]],
    [
      'my wife and I opened our own bakery, Crumb Bakehouse, last spring.',
      [{ k: 'employer', v: 'Crumb Bakehouse', since: SINCE }],
    ],
    ["I'm now working for a small architecture firm.", [{ k: 'employer', v: 'small architecture firm', since: SINCE }]],
    ['three months in Lisbon now and I love it.', [{ k: 'location', v: 'Lisbon', since: SINCE }]],
    ['our tiny flat in Ghent has no oven.', [{ k: 'location', v: 'Ghent' }]],
    ['We rented a cottage in Keswick for good.', [{ k: 'location', v: 'Keswick', since: SINCE }]],
    ['our daughter was born on Monday, we named her Ines.', [{ k: 'family:daughter:ines', v: 'daughter Ines' }]],
    // A baby born in the family: what it is to the user follows whose it is.
    [
      'happy news — my sister Carmen had her baby yesterday, a little boy called Matei!',
      [
        { k: 'family:sister:carmen', v: 'sister Carmen' },
        { k: 'family:nephew:matei', v: 'nephew Matei' },
      ],
    ],
    ['my wife gave birth to our daughter, named Lina, on Tuesday', [{ k: 'family:daughter:lina', v: 'daughter Lina' }]],
    ['everyone has a dog, and mine, Rocco, barks at every single one of them', [{ k: 'pet:rocco', v: 'dog Rocco' }]],
    // A transfer to an office in another town moves the user there, not when someone else is moved.
    [
      'so I finally did it, transferred to the Deloitte Cape Town office',
      [{ k: 'location', v: 'Cape Town', since: '2026-02-18' }],
    ],
    ['they moved me to the Berlin team last month', [{ k: 'location', v: 'Berlin', since: '2026-02-18' }]],
    ['my sister got transferred to the Madrid office', []],
    [
      'my grandkids Leo and Mila visit on Sundays.',
      [
        { k: 'family:grandkids:leo', v: 'grandkids Leo' },
        { k: 'family:grandkids:mila', v: 'grandkids Mila' },
      ],
    ],
    [
      'Every Friday we have lunch at my parents with the kids, Yusuf and Layla.',
      [
        { k: 'family:kids:yusuf', v: 'kids Yusuf' },
        { k: 'family:kids:layla', v: 'kids Layla' },
      ],
    ],
    ['Biscuit the rabbit chewed the cable again.', [{ k: 'pet:biscuit', v: 'rabbit Biscuit' }]],
    ['Will the dog stole a sock again.', [{ k: 'pet:will', v: 'dog Will' }]],
    ['my sciatica is acting up again.', [{ k: 'health:sciatica', v: 'sciatica' }]],
    ["the doctor says it's plantar fasciitis.", [{ k: 'health:plantar_fasciitis', v: 'plantar fasciitis' }]],
    ["I'm on metformin now.", [{ k: 'health:metformin', v: 'on metformin' }]],
    ["I'm 12 weeks pregnant!", [{ k: 'health:pregnancy', v: '12 weeks pregnant', since: SINCE }]],
    ['been pescatarian 3 years, fish is fine.', [{ k: 'diet', v: 'pescatarian', since: SINCE }]],
    ["ironic, but I work in a café and I don't actually drink coffee.", [{ k: 'avoids:coffee', v: 'no coffee' }]],
    [
      'i teach chemistry at Kelvin High in Winnipeg and my lab heating died',
      [
        { k: 'role', v: 'teaches chemistry' },
        { k: 'employer', v: 'Kelvin High' },
        { k: 'location', v: 'Winnipeg' },
      ],
    ],
    ['I drive for FedEx.', [{ k: 'employer', v: 'FedEx' }]],
    // A role its word does not tell, told by where it is held: a town, an employer, a workplace.
    [
      "I'm a GP in Cork btw.",
      [
        { k: 'role', v: 'GP' },
        { k: 'location', v: 'Cork' },
      ],
    ],
    [
      "I'm a junior associate at a commercial law firm.",
      [
        { k: 'role', v: 'junior associate' },
        { k: 'employer', v: 'commercial law firm', since: SINCE },
      ],
    ],
    ["I'm a regular at Luigi's.", []],
    // Kin as chat says it.
    ["my lad Owen is 4 and he's started asking questions", [{ k: 'family:lad:owen', v: 'lad Owen' }]],
    ["it's my father-in-law Rafael's retirement dinner", [{ k: 'family:father_in_law', v: 'father-in-law Rafael' }]],
    ['my hubby Dan snores', [{ k: 'family:husband', v: 'hubby Dan' }]],
    ["I'm a member at the climbing gym.", []],
    [
      "i'm a junior backend dev at Monzo, been here 18 months",
      [
        { k: 'role', v: 'junior backend dev' },
        { k: 'employer', v: 'Monzo' },
      ],
    ],
    [
      "I've got coeliac disease so the bake sale is a minefield",
      [{ k: 'health:coeliac_disease', v: 'coeliac disease' }],
    ],
    ['been vegetarian 6 yrs, any lunch ideas', [{ k: 'diet', v: 'vegetarian', since: SINCE }]],
    ['my bearded dragon Saffron has not eaten in days', [{ k: 'pet:saffron', v: 'bearded dragon Saffron' }]],
    ['I accepted the offer from Sacred Heart in Halifax today!!', [{ k: 'employer', v: 'Sacred Heart', since: SINCE }]],
    ['we have two cats and a very old fridge', [{ k: 'pet:cat', v: 'has two cats' }]],
    ['I have a 3 year old beagle, any tips for the heat?', [{ k: 'pet:beagle', v: 'has a 3 year old beagle' }]],
    ["I'm retired now, so mornings are mine.", [{ k: 'role', v: 'retired', since: SINCE }]],
    // A name ends before the pronoun that opens the next clause.
    ['I live in Lisbon, I love it here.', [{ k: 'location', v: 'Lisbon' }]],
    [
      "I work at Google, I'm a designer.",
      [
        { k: 'role', v: 'designer' },
        { k: 'employer', v: 'Google' },
      ],
    ],
    // Where the user grew up; children counted; a food given up; a field or a new job by what it is.
    ['I grew up in Ohio, so winters here feel mild.', [{ k: 'origin', v: 'Ohio' }]],
    ['I was born and raised in Texas.', [{ k: 'origin', v: 'Texas' }]],
    ['My grandma in my home country, Sweden, gave it to me.', [{ k: 'origin', v: 'Sweden' }]],
    ['I have two kids under five.', [{ k: 'family:children', v: 'has two kids' }]],
    ['We have a son and a daughter.', [{ k: 'family:sons', v: 'has a son' }]],
    ["I'm a proud dad of 2.", [{ k: 'family:children', v: 'has 2 children' }]],
    ['I gave up meat last year.', [{ k: 'avoids:meat', v: 'no meat', since: SINCE }]],
    ['I quit drinking in January.', [{ k: 'avoids:alcohol', v: 'no alcohol', since: SINCE }]],
    [
      "I've stopped drinking alcohol completely since January anyway",
      [{ k: 'avoids:alcohol', v: 'no alcohol', since: SINCE }],
    ],
    ['I work in fashion buying, I can talk fabrics for hours', [{ k: 'role', v: 'works in fashion buying' }]],
    ["I've worked in healthcare for years.", [{ k: 'role', v: 'works in healthcare' }]],
    ['I got a job as a barista!', [{ k: 'role', v: 'barista', since: SINCE }]],
    // Age (with the day it was said), relationship status, languages.
    ["I'm 34, so not exactly a student.", [{ k: 'age', v: '34', since: SINCE }]],
    ['I just turned 40 last month.', [{ k: 'age', v: '40', since: SINCE }]],
    ["I'm married, two years now.", [{ k: 'relationship', v: 'married', since: SINCE }]],
    ['We got engaged last week!', [{ k: 'relationship', v: 'engaged', since: SINCE }]],
    ["It's where I got married.", [{ k: 'relationship', v: 'married', since: SINCE }]],
    ['I speak Spanish and French.', [{ k: 'languages', v: 'speaks Spanish and French' }]],
    ["I'm fluent in Portuguese.", [{ k: 'languages', v: 'speaks Portuguese' }]],
    // Where the user rents or moved into; a pet taken in.
    ['We just moved into a new apartment in Brooklyn.', [{ k: 'location', v: 'Brooklyn', since: SINCE }]],
    ['I rent a flat in Leeds.', [{ k: 'location', v: 'Leeds' }]],
    ['We adopted a puppy last month.', [{ k: 'pet:puppy', v: 'has a puppy', since: SINCE }]],
    ['We rescued two cats.', [{ k: 'pet:cat', v: 'has two cats', since: SINCE }]],
  ])('%s', (text, expected) => {
    expect(facts(text)).toEqual(expected);
  });

  it.each([
    'Do you know a good physio in Leeds?',
    "If I'm in Madrid next week, what should I see?",
    'The cat the neighbours own is loud.',
    'You should try being vegetarian for a month.',
    'My cousin works as a midwife here in Galway.',
    "she's a teacher here in Graz",
    "I'm the bridesmaid at Lea's wedding.",
    "lol I told my friends about it and now they think I'm a cat scientist",
    'I shop at Lidl on Saturdays.',
    'my python Django app keeps crashing',
    'I have a dog allergy, sadly.',
    'Do you have a cat?',
    'They just put the hats on for fun and treats. And the dog park is a great place to start!',
    'We met Luna the dog trainer yesterday.',
    'I grew up in a small town.',
    'I have two kids in my class who struggle with reading.',
    'I gave up the project.',
    'I quit coffee for a week.',
    'I got a job as a result of the fair.',
    'I work in it every night.',
    "I'm 5 minutes away.",
    'I turned 180 degrees and left.',
    "I'm single-handedly running this.",
    "We're getting married next year.",
    'I speak my mind.',
    'I got a dog bed for Max.',
    'We adopted a new approach.',
  ])('is no fact of the user: %s', (text) => {
    expect(facts(text)).toEqual([]);
  });

  it('names a pet adopted a sentence before', () => {
    expect(
      facts("ok we did a thing... we adopted a kitten from the shelter! he's grey and tiny and we named him Gnocchi"),
    ).toEqual([{ k: 'pet:gnocchi', v: 'kitten Gnocchi' }]);
    expect(facts('we saw a kitten at the shelter! we named him Gnocchi in our heads')).toEqual([]);
  });

  it('keeps the place said first in a message, not the part of it said after', () => {
    const located = (text: string) => facts(text).filter((fact) => fact['k'] === 'location');
    expect(located("I'm in Madrid now! found a small flat in Lavapiés.")).toEqual([
      { k: 'location', v: 'Madrid', since: SINCE },
    ]);
    // A move said after still wins: the later of the sentences' facts is the current one.
    expect(located('I live in Berlin. Well, I just moved to Lisbon actually.').at(-1)).toEqual({
      k: 'location',
      v: 'Lisbon',
      since: SINCE,
    });
  });

  it('knows where the user lives until a move', () => {
    expect(facts("I'm leaving Edinburgh for a job in Madrid in June and need a flat.")).toEqual([
      { k: 'location', v: 'Edinburgh' },
    ]);
  });

  it("takes a relative's name without the possessive", () => {
    expect(facts("btw she's my niece, my brother Tom's kid.")).toEqual([{ k: 'family:brother:tom', v: 'brother Tom' }]);
  });

  it('reads who is who from a question, and nothing it asks about', () => {
    const named = (text: string) => factsFrom('en.profile.named', text);
    expect(named('what can I stuff a Kong with for my dog Bruno?')).toEqual([{ k: 'pet:bruno', v: 'dog Bruno' }]);
    expect(named('my husband Mark turns 40 in july, gift ideas?')).toEqual([
      { k: 'family:husband', v: 'husband Mark' },
    ]);
    expect(named('Is my sister allowed to bring her dog?')).toEqual([]);
    expect(named('My dog Bruno loves the beach.')).toEqual([]);
  });

  it('reads nothing of the assistant', () => {
    expect(facts("I'm a big fan of Lisbon, I'm in Lisbon and on statins.", 'assistant')).toEqual([]);
  });
});
