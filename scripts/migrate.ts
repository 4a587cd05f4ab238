// npm run db:migrate: applies the migrations of the database DATABASE_URL selects (SQLite by default).
import { migrate } from "../app/db/migrate";

const url = process.env.DATABASE_URL ?? "file:./data/app.sqlite";
try {
  const applied = await migrate(url);
  console.log(
    applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database is up to date.",
  );
} catch (error) {
  console.error(`Migration failed: ${(error as Error).message}`);
  process.exit(1);
}
