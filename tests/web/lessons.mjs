// Facts read from the lesson files themselves (assets/lessons), as tests/ui/classroom_test.py
// reads them: a page's title and the panels its `panels` line names.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './harness.mjs';

const DIR = path.join(REPO, 'assets', 'lessons');

// [{title, panels: [...]}] of lesson `name` (the file NN-name.lesson), pages in order.
export function lessonPages(name) {
  const file = readdirSync(DIR).find((f) => f.replace(/^\d+-/, '') === `${name}.lesson`);
  if (!file) throw new Error(`no lesson ${name} in ${DIR}`);
  const pages = [];
  for (const line of readFileSync(path.join(DIR, file), 'utf8').split('\n')) {
    if (line.startsWith('page ')) pages.push({ title: line.slice(5).trim(), panels: [] });
    else if (line.startsWith('panels ') && pages.length)
      pages[pages.length - 1].panels = line.slice(7).split(',').map((p) => p.trim());
  }
  return pages;
}

// A script that opens every lesson and every page of it in turn, waiting for each page's run:
// what a class does over a term (the heap test and the web benchmark walk it).
export function lessonWalkScript() {
  let script = '';
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.lesson')).sort()) {
    const name = file.replace(/^\d+-/, '').replace(/\.lesson$/, '');
    script += `lesson ${name}\nwait\n` + 'lesson next\nwait\n'.repeat(lessonPages(name).length - 1);
  }
  return script;
}
