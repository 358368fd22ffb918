import { gql } from '@apollo/client';
import type {
  DocumentSummary,
  HelpArticle,
  LibraryView,
  Paged,
  PathwaySummary,
  TrainingSessionView,
  UserBookingView,
} from '@cc/contracts';
import { gqlMutate, gqlPage, gqlQuery, PAGINATOR_INFO, restShape, variablesOf } from './request';

/**
 * The web app's GraphQL operations (spec 2 §7), one per screen that reads or writes through GraphQL (README.md beside
 * this file lists them). Each asks for exactly the fields of the contracts' type the screen was written for, and
 * answers in that type, so the pages did not change.
 */

const ENTITY_REF = 'entity { id slug name }';

// --- Pathways (/pathways list, the awaiting sign-off widget) ---------------------------------------------------

const PATHWAYS = gql`
  query Pathways($first: Int, $page: Int, $search: String) {
    pathways(first: $first, page: $page, search: $search) {
      data {
        id uuid title description ${ENTITY_REF} course_id sequential requires_final_sign_off version step_count
        counts { in_progress awaiting_sign_off completed }
        updated_at
      }
      ${PAGINATOR_INFO}
    }
  }
`;

export const pathwaysPage = (f: { page?: number; per_page?: number; search?: string }) =>
  gqlPage<PathwaySummary>(PATHWAYS, variablesOf({ first: f.per_page, page: f.page, search: f.search }));

// --- Document libraries (/documents, /documents/libraries/{id}) --------------------------------------------------

const LIBRARY_FIELDS = `id uuid name description ${ENTITY_REF} document_count updated_at can_manage`;
type LibraryRow = Omit<LibraryView, 'can'> & { can_manage: boolean };
const libraryView = ({ can_manage, ...row }: LibraryRow): LibraryView => ({
  ...row,
  can: { manage: can_manage },
});

const LIBRARIES = gql`
  query Libraries($first: Int, $page: Int, $search: String) {
    libraries(first: $first, page: $page, search: $search) {
      data { ${LIBRARY_FIELDS} }
      ${PAGINATOR_INFO}
    }
  }
`;

export async function librariesPage(f: { page?: number; search?: string }): Promise<Paged<LibraryView>> {
  const page = await gqlPage<LibraryRow>(LIBRARIES, variablesOf({ page: f.page, search: f.search }));
  return { ...page, data: page.data.map(libraryView) };
}

const LIBRARY = gql`
  query Library($id: ID!) {
    library(id: $id) { ${LIBRARY_FIELDS} }
  }
`;

export const library = async (id: number): Promise<LibraryView> =>
  libraryView(restShape<{ library: LibraryRow }>(await gqlQuery(LIBRARY, { id: String(id) })).library);

const LIBRARY_DOCUMENTS = gql`
  query LibraryDocuments($libraryId: ID!, $first: Int, $page: Int, $search: String) {
    documents(libraryId: $libraryId, first: $first, page: $page, search: $search) {
      data {
        id uuid title description library { id name } ${ENTITY_REF} course_id version updated_at my_status
      }
      ${PAGINATOR_INFO}
    }
  }
`;

export const libraryDocumentsPage = (libraryId: number, f: { page?: number; search?: string }) =>
  gqlPage<DocumentSummary>(
    LIBRARY_DOCUMENTS,
    variablesOf({ libraryId: String(libraryId), page: f.page, search: f.search }),
  );

const CREATE_LIBRARY = gql`
  mutation CreateLibrary($input: LibraryInput!) {
    createLibrary(input: $input) { ${LIBRARY_FIELDS} }
  }
`;
const UPDATE_LIBRARY = gql`
  mutation UpdateLibrary($id: ID!, $input: LibraryInput!) {
    updateLibrary(id: $id, input: $input) { ${LIBRARY_FIELDS} }
  }
`;

/** In the REST answer's shape ({data: {data}}) that the documents pages' docAction reads. */
export async function createLibraryMutation(input: {
  name: string;
  description?: string | null;
  entity?: string;
}): Promise<{ data: { data: LibraryView } }> {
  const answer = restShape<{ createLibrary: LibraryRow }>(await gqlMutate(CREATE_LIBRARY, { input }));
  return { data: { data: libraryView(answer.createLibrary) } };
}

/** Only the fields sent change (PATCH semantics): a field left out stays out of the input. */
export async function updateLibraryMutation(
  id: number,
  input: { name?: string; description?: string | null },
): Promise<{ data: { data: LibraryView } }> {
  const sent = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const answer = restShape<{ updateLibrary: LibraryRow }>(
    await gqlMutate(UPDATE_LIBRARY, { id: String(id), input: sent }),
  );
  return { data: { data: libraryView(answer.updateLibrary) } };
}

// --- Pending results (/results/pending/{type}) --------------------------------------------------------------------

const APPROVE_PENDING = gql`
  mutation ApprovePendingResult($id: ID!) {
    approvePendingResult(id: $id) { id status }
  }
`;
const DELETE_PENDING = gql`
  mutation DeletePendingResult($id: ID!) {
    deletePendingResult(id: $id)
  }
`;

export async function approvePendingResult(id: number): Promise<{ data: { message?: string } }> {
  await gqlMutate(APPROVE_PENDING, { id: String(id) });
  return { data: {} };
}
export async function deletePendingResult(id: number): Promise<{ data: { message?: string } }> {
  await gqlMutate(DELETE_PENDING, { id: String(id) });
  return { data: {} };
}

// --- Help articles (the help widget, /help-articles) -------------------------------------------------------------

const HELP_ARTICLES = gql`
  query HelpArticles {
    helpArticles { id title url_regex link_suffix body created_at updated_at }
  }
`;

/** Every article (the widget matches them to the route itself); articles are global, so no acting-as. */
export const helpArticles = async (): Promise<HelpArticle[]> =>
  restShape<{ helpArticles: HelpArticle[] }>(
    await gqlQuery(HELP_ARTICLES, {}, undefined, { actingAs: false }),
  ).helpArticles;

const DELETE_HELP_ARTICLE = gql`
  mutation DeleteHelpArticle($id: ID!) {
    deleteHelpArticle(id: $id)
  }
`;
export async function deleteHelpArticle(id: number): Promise<void> {
  await gqlMutate(DELETE_HELP_ARTICLE, { id: String(id) }, undefined, { actingAs: false });
}

// --- Training sessions (/manage-bookings list and calendar) and the learner's bookings (/your-bookings) -----------

const SESSION_FIELDS = `
  id uuid ${ENTITY_REF} contentId content { id title } course { id title }
  date startTime endTime dates { date startTime endTime } starts_at ends_at
  trainerId trainer { id uuid name } venue room virtual virtual_url area aim contentCovered learningOutcomes
  availableTo minDelegates maxDelegates grading_method pass_mark status cancelled
  cancellation_reason_id cancellation_reason cancellation_notes places_taken places_free waitlist_count
  check_in_code can { edit manage_delegates mark book } my_booking { id status } created_at updated_at
`;

const TRAINING_SESSIONS = gql`
  query TrainingSessions(
    $first: Int, $page: Int, $search: String, $from: String, $to: String, $content_id: Int, $trainer_id: Int,
    $status: String, $mine: Boolean, $has_places: Boolean
  ) {
    trainingSessions(
      first: $first, page: $page, search: $search, from: $from, to: $to, content_id: $content_id,
      trainer_id: $trainer_id, status: $status, mine: $mine, has_places: $has_places
    ) {
      data { ${SESSION_FIELDS} }
      ${PAGINATOR_INFO}
    }
  }
`;

export interface SessionVariables {
  page?: number;
  per_page?: number;
  search?: string;
  from?: string;
  to?: string;
  content_id?: number;
  trainer_id?: number;
  status?: string;
  mine?: boolean;
  has_places?: boolean;
}

export function trainingSessionsPage(f: SessionVariables): Promise<Paged<TrainingSessionView>> {
  const { per_page, mine, has_places, ...rest } = f;
  // false was "no filter" in the REST query string (it was left out), so it is left out here too.
  return gqlPage<TrainingSessionView>(
    TRAINING_SESSIONS,
    variablesOf({ ...rest, first: per_page, mine: mine || undefined, has_places: has_places || undefined }),
  );
}

const MY_BOOKINGS = gql`
  query MyBookings($user: ID!, $scope: String, $first: Int, $page: Int) {
    bookings(user: $user, scope: $scope, first: $first, page: $page) {
      data {
        delegate {
          id session_id user { id uuid name } ${ENTITY_REF} status context order_id waitlist_position
          offer_expires_at attendance passed score notes checked_in_at marked_at result_id
          booked_by { id uuid name } created_at updated_at
        }
        session { ${SESSION_FIELDS} }
      }
      ${PAGINATOR_INFO}
    }
  }
`;

type BookingRow = { delegate: Omit<UserBookingView, 'session'>; session: TrainingSessionView };

/** A booking is its delegate row with the session (REST's UserBookingView). */
export async function myBookingsPage(
  user: number,
  scope: string,
  page: number,
  perPage: number,
): Promise<Paged<UserBookingView>> {
  const answer = await gqlPage<BookingRow>(MY_BOOKINGS, { user: String(user), scope, page, first: perPage });
  return { ...answer, data: answer.data.map((b) => ({ ...b.delegate, session: b.session })) };
}
