import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';

const tastes = (text: string, role: 'user' | 'assistant' = 'user') => factsFrom('en.profile.taste', text, role);

describe('tastes', () => {
  it.each([
    ["I've been really into synthwave lately.", 'taste:synthwave', 'likes synthwave'],
    ["I'm obsessed with bouldering these days.", 'taste:bouldering', 'likes bouldering'],
    ['big fan of Ethiopian food, the spicier the better', 'taste:ethiopian_food', 'likes Ethiopian food'],
    ["so I've gotten really into pottery this spring", 'taste:pottery', 'likes pottery'],
    ['Studio Ghibli is my absolute fave, always has been.', 'taste:studio_ghibli', 'likes Studio Ghibli'],
    ["I'm a huge Celtic fan, so the derby matters.", 'taste:celtic', 'likes Celtic'],
    ['I really enjoy birdwatching on the coast.', 'taste:birdwatching', 'likes birdwatching'],
    ["I can't stand olives, sorry.", 'taste:olives', 'dislikes olives'],
    ["Honestly I'm not a big fan of musicals.", 'taste:musicals', 'dislikes musicals'],
    ['not really into reality TV either', 'taste:reality_tv', 'dislikes reality TV'],
    ["I'm totally into The Witcher 3 right now.", 'taste:witcher_3', 'likes Witcher 3'],
    ['golf bores me to tears', 'taste:golf', 'dislikes golf'],
    ['anyway, karaoke is a hard no from me', 'taste:karaoke', 'dislikes karaoke'],
    ["no raisins, I really can't stand them", 'taste:raisins', 'dislikes raisins'],
    [
      'honestly the only thing keeping me sane is bouldering, I go whenever I can',
      'taste:bouldering',
      'likes bouldering',
    ],
    ["had a flat white last week and I'm hooked.", 'taste:flat_white', 'likes flat white'],
    ["I finally tried padel on Saturday and I'm obsessed", 'taste:padel', 'likes padel'],
    ['pottery is my therapy honestly', 'taste:pottery', 'likes pottery'],
    ["lol and my aunt always brings durian, I can't stand it, the smell", 'taste:durian', 'dislikes durian'],
    ["my coworkers keep blasting reggaeton in the office, I can't stand it", 'taste:reggaeton', 'dislikes reggaeton'],
    [
      "my neighbour plays loud techno every night — I really can't stand it",
      'taste:loud_techno',
      'dislikes loud techno',
    ],
    ["I'm done with crossfit.", 'taste:crossfit', 'dislikes crossfit'],
    ['We both love sea swimming, even in March.', 'taste:sea_swimming', 'likes sea swimming'],
    ['We both love hiking in the Vercors but I want something special', 'taste:hiking', 'likes hiking in the Vercors'],
    ['my brother and I really enjoy board games', 'taste:board_games', 'likes board games'],
    ["honestly I'm way more into bouldering these days", 'taste:bouldering', 'likes bouldering'],
    ["I'm more into trail running now", 'taste:trail_running', 'likes trail running'],
    ['salam! I play the oud, I have a beautiful one from Baghdad', 'taste:oud', 'plays the oud'],
    ["I support Benfica, we're at the Luz every home game", 'taste:benfica', 'supports Benfica'],
    ["we've always supported Al Ahly in this family", 'taste:al_ahly', 'supports Al Ahly'],
    // A hyphen inside a word is part of the thing; one with a space after it ends the phrase.
    ['I love sci-fi, especially the old stuff.', 'taste:sci_fi', 'likes sci-fi'],
    ["I'm really into upside-down poses lately", 'taste:upside_down_poses', 'likes upside-down poses'],
    ['I love pottery- it calms me down.', 'taste:pottery', 'likes pottery'],
    ['I still like to go skateboarding.', 'taste:skateboarding', 'likes skateboarding'],
    // A verb of saying or going as a word of a thing's name: "go-karts", "talk shows".
    ['I love go-karts.', 'taste:go_karts', 'likes go-karts'],
    ['I love talk shows.', 'taste:talk_shows', 'likes talk shows'],
    // "like this" points at what the listener shows; the thing is before it.
    ["I'm also a big fan of scents like this!", 'taste:scents', 'likes scents'],
    ['I love colour photography.', 'taste:colour_photography', 'likes colour photography'],
    // A pastime said with "to" keeps it; a name the sentence ends on stays when the rest is a thing.
    ['Yeah, I love to read.', 'taste:read', 'likes to read'],
    ['I love to paint landscapes.', 'taste:paint_landscapes', 'likes to paint landscapes'],
    ['I hate to cook.', 'taste:cook', "doesn't like to cook"],
    ['I love reading Tolkien!', 'taste:reading_tolkien', 'likes reading Tolkien'],
    // A pastime said by what the user plays, collects, spends time on or calls a hobby.
    ['Yeah, I play clarinet! Started when I was young.', 'taste:clarinet', 'plays clarinet'],
    ['I play guitar in a band.', 'taste:guitar', 'plays guitar'],
    ['My hobby is painting.', 'taste:painting', 'likes painting'],
    ['My main hobbies are hiking and chess.', 'taste:hiking', 'likes hiking'],
    ['Painting is my passion.', 'taste:painting', 'likes painting'],
    ['Knitting is my favourite hobby.', 'taste:knitting', 'likes knitting'],
    ['I spend most of my free time reading novels.', 'taste:reading_novels', 'likes reading novels'],
    ['I collect vinyl records.', 'taste:vinyl_records', 'collects vinyl records'],
    ["I've been doing yoga for years.", 'taste:yoga', 'does yoga'],
    // The kind itself, not "any" of it.
    ["I'm kind of a sucker for any superhero - everyone has their own story.", 'taste:superhero', 'likes superhero'],
    ['I enjoy all sorts of board games.', 'taste:board_games', 'likes board games'],
    ["I'm into all kinds of puzzles.", 'taste:puzzles', 'likes puzzles'],
  ])('%s', (text, k, v) => {
    expect(tastes(text)).toEqual([{ k, v }]);
  });

  it.each([
    'My flatmate is obsessed with true crime.',
    'Do you like opera?',
    "If you hate the cold, I'd skip Oslo.",
    'I love that idea.',
    'I support the idea of a four-day week.',
    'I love it when you do that.',
    "I'd love to try surfing someday.",
    "I'm obsessed with the genre now.",
    'I like the smoky ones best.',
    'My parents love cruises.',
    'We love hearing from customers like you.',
    'Do you and your partner both love hiking?',
    "You're more into podcasts than audiobooks, I think.",
    'My sister is more into climbing than me.',
    'I play the long game with landlords.',
    'my son plays the drums all day',
    'my boss makes us work on Saturdays, I hate it',
    'she brought it up again, I hate it',
    'my mum cooks lentils every Sunday, I love it',
    "he tried a new approach and I'm in love with it",
    'what keeps me sane is unclear',
    'the thing keeping me sane is that it ends soon',
    "I got promoted at work, and I'm over the moon about it!",
    "I'm over at my sister's place this week.",
    'I like to just take a look at the sunset.',
    'I love to give it a try when I can.',
    "That's what I like to hear!",
    'As I like to say, there is no club better than Liverpool.',
    'Being my own boss and doing something I love is awesome.',
    "I'm really grateful to have a job I enjoy every day.",
    'I love making this, it is so creamy.',
    'I also like holding them.',
    'I love to help people.',
    // Praise of what the listener shows.
    'Wow, that looks amazing! I love the color and texture.',
    'I love the design, so clean.',
    'I love the thought!',
    // The same with the listener's name after it; another's work; a verb cut from its object.
    'I love the thought Nate!',
    'I love their work!',
    'I love his music, he is so talented.',
    'I love throwing on some music and dancing around.',
    // What is played, collected or done that is no pastime; a family is no taste.
    'I play it by ear.',
    'I play games with my kids.',
    'I play video games sometimes.',
    'I play along.',
    'Do you play chess?',
    'I collect my thoughts before a meeting.',
    "I've been doing well for years.",
    'My family is my passion.',
    'Connecting with the things I love makes writing even more fun.',
  ])('is no taste: %s', (text) => {
    expect(tastes(text)).toEqual([]);
  });

  it('leaves a known preference topic to the preference rules', () => {
    expect(tastes('I love green tea.')).toEqual([]);
  });

  it('keeps nothing the assistant likes', () => {
    expect(tastes("I'm a big fan of jazz myself.", 'assistant')).toEqual([]);
  });
});
